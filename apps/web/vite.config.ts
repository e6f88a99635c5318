import { defineConfig } from 'vitest/config';

// The web app builds to static files (dist/) that the gateway serves at the root of its origin
// (QUIRE_WEB_DIST). React's JSX is compiled by Vite's esbuild; no plugin is needed for a build.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Hashed file names: the gateway serves /assets/ as immutable.
    assetsDir: 'assets',
    rollupOptions: {
      // React Query's "use client" markers mean nothing outside server components.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE' && warning.code !== 'SOURCEMAP_ERROR') warn(warning);
      },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    exclude: ['test/**/*.e2e.test.ts', '**/node_modules/**'],
    environment: 'jsdom',
    // The files share one process and its modules, as the services' suites do; test/setup-dom.ts
    // points what the modules kept at each file's new window.
    isolate: false,
    setupFiles: ['test/setup-dom.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
  },
});
