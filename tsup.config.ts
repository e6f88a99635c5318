import { defineConfig } from 'tsup';

// One build for every app: its code and the workspace packages (@quire/*, shipped as TypeScript)
// in one ES module; third-party packages stay in node_modules, so each app declares the ones its
// bundle imports.
export default defineConfig({
  entry: ['src/main.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  skipNodeModulesBundle: true,
  noExternal: [/^@quire\//],
});
