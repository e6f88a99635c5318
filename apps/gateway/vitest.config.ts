import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The e2e files share one stack of services besides the process (harness.ts: sharedStack);
// setup.ts checks every answer against GitBook's OpenAPI document.
export default mergeConfig(shared, defineConfig({ test: { setupFiles: ['test/setup.ts'] } }));
