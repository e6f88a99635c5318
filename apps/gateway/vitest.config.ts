import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The e2e files share one process, its modules and its stack of services (harness.ts:
// sharedStack); setup.ts puts back what a file changes of the process.
export default mergeConfig(shared, defineConfig({ test: { isolate: false, setupFiles: ['test/setup.ts'] } }));
