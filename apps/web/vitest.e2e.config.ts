import { defineConfig } from 'vitest/config';

// The browser tests: the built app served by the real gateway over the real services, driven in
// Debian's Chromium. Apart from the component tests (jsdom). The files share one process and its
// stack of services, as the gateway's do.
export default defineConfig({
  test: {
    include: ['test/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['../../packages/service-kit/src/testing/restore-process.ts', '../gateway/test/setup.ts'],
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
