import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The e2e files share the run's stack of services (global-setup.ts); setup.ts checks every answer
// against GitBook's OpenAPI document. The longest suite: two worker processes, so that it uses
// both cores once the other suites are done.
export default mergeConfig(shared, defineConfig({ test: { setupFiles: ['test/setup.ts'], maxWorkers: 2, minWorkers: 1 } }));
