import { defineConfig } from 'vitest/config';

// Static checks of the deploy files, and the operations tests (backup, replicas) over real stores.
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
});
