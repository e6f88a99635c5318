import { defineConfig } from 'tsup';

// One build for every app: its entry bundled with the workspace packages (@quire/*), which ship
// as TypeScript source; third-party dependencies stay in node_modules.
export default defineConfig({
  entry: ['src/main.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: [/^@quire\//],
});
