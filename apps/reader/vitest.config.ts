import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// As the gateway's e2e suite: one stack of services for the files, every answer of the gateway checked.
export default mergeConfig(shared, defineConfig({ test: { setupFiles: ['../gateway/test/setup.ts'] } }));
