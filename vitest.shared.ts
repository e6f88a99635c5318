import { defineConfig } from 'vitest/config';

// The services' test setup: unit tests beside the code, contract and end-to-end tests in test/,
// and a globalSetup there that migrates the template databases once per run.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Contract and end-to-end tests start real services: a CI machine running two suites at once
    // can take several times a quiet machine's seconds. Speed is measured in bench/, not here.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
