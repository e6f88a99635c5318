import { defineConfig } from 'tsup';

// One build for every app: its code and the workspace packages (@quire/*, shipped as TypeScript)
// in one ES module; third-party packages stay in node_modules, so each app declares the ones its
// bundle imports.
export default defineConfig({
  entry: ['src/main.ts'],
  format: 'esm',
  platform: 'node',
  // The oldest Node the images may run (24 is what they ship; 22 still works).
  target: 'node22',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  skipNodeModulesBundle: true,
  noExternal: [/^@quire\//],
});
