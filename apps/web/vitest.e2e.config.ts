import { defineConfig } from 'vitest/config';

// The browser tests: the built app served by the real gateway over the real services, driven in
// Debian's Chromium. Apart from the component tests (jsdom), with the gateway's database setup.
export default defineConfig({
  test: {
    include: ['test/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['../gateway/test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
