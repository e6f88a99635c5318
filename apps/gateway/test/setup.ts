import { afterAll, afterEach } from 'vitest';
import { recordCoverage } from './gitbook-spec.ts';
import { violations } from './harness.ts';

// Run before every test file of the e2e suites (their files share one process: vitest.config.ts).

// An answer of the test (or of the setup before it) that breaks GitBook's OpenAPI document fails it, with Ajv's errors.
afterEach(() => {
  const found = violations.splice(0);
  if (found.length) throw new Error(`answers not conforming to GitBook's OpenAPI document:\n${JSON.stringify(found, null, 2)}`);
});

// The operations this file's answers covered, for the run's count (global-setup.ts).
afterAll(recordCoverage);
