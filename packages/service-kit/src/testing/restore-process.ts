import { afterAll, vi } from 'vitest';

// Run before every test file of the suites whose files share one process (vitest.shared.ts): what
// a file changes of the process, its environment and its spies, is put back for the next file.
const env = { ...process.env };
afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  vi.restoreAllMocks();
});
