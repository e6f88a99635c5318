import { afterAll, afterEach, vi } from 'vitest';
import { recordCoverage } from './gitbook-spec.ts';
import { violations } from './harness.ts';

// Run before every test file (the files share one process and its modules: vitest.config.ts).

// An answer of the test (or of the setup before it) that breaks GitBook's OpenAPI document fails it, with Ajv's errors.
afterEach(() => {
  const found = violations.splice(0);
  if (found.length) throw new Error(`answers not conforming to GitBook's OpenAPI document:\n${JSON.stringify(found, null, 2)}`);
});

// What a file changes of the process is put back for the next one: its environment and its spies.
const env = { ...process.env };
afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  vi.restoreAllMocks();
  recordCoverage();
});
