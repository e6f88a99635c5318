import { defineConfig } from 'vitest/config';

// Pure functions: the files share one process and its modules (no file changes the process).
export default defineConfig({ test: { include: ['src/**/*.test.ts'], isolate: false } });
