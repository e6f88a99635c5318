import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// As the gateway's e2e suite: the files share one process and its stack of services.
export default mergeConfig(shared, defineConfig({ test: { isolate: false, setupFiles: ['../gateway/test/setup.ts'] } }));
