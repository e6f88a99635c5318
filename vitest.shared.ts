import { defineConfig } from 'vitest/config';

// The services' test setup: unit tests beside the code, contract and end-to-end tests in test/,
// and a globalSetup there that migrates the template databases once per run.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
