import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Contract tests over the run's shared stack of services, the gateway's (its global setup): the
// collaboration server and its providers are real, so are the services behind them.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    isolate: false,
    setupFiles: [fileURLToPath(new URL('../../packages/service-kit/src/testing/restore-process.ts', import.meta.url)), '../gateway/test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
