import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The services' test setup: unit tests beside the code, contract and end-to-end tests in test/,
// and a globalSetup there that makes the template databases (once for their migrations).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // A suite's files share one process and its modules: loading them once per file was most of
    // a suite's time. What a file changes of the process is put back after it.
    isolate: false,
    setupFiles: [fileURLToPath(new URL('./packages/service-kit/src/testing/restore-process.ts', import.meta.url))],
    // Contract and end-to-end tests start real services: a CI machine running two suites at once
    // can take several times a quiet machine's seconds. Speed is measured in bench/, not here.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
