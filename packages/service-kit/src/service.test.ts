import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isProcessEntry } from './service.js';

describe('a service entry', () => {
  it('starts only as the script node runs, not when a test imports its main module', () => {
    expect(isProcessEntry(pathToFileURL(realpathSync(process.argv[1]!)).href)).toBe(true);
    expect(isProcessEntry(import.meta.url)).toBe(false);
  });
});
