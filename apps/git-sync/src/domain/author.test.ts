import { describe, expect, it } from 'vitest';
import { identity } from './author.ts';
import { commitMessageOf } from '../consumers/merges.ts';

describe("a merge's commit", () => {
  it('is authored by the merger, as git writes a person', () => {
    expect(identity({ name: 'Ada Lovelace', email: 'ada@example.com' })).toBe('Ada Lovelace <ada@example.com>');
    expect(identity({ name: '  ', email: 'ada@example.com' })).toBe('ada@example.com <ada@example.com>');
  });

  it("a name that tries to end the author header and forge a committer stays one header's name", () => {
    const forged = identity({ name: 'Eve <eve@evil.test> 0 +0000\ncommitter Mallory <m@evil.test>', email: 'eve@example.com>\nx' });
    expect(forged).not.toMatch(/[\r\n]/);
    expect(forged.match(/[<>]/g)).toEqual(['<', '>']);
    expect(forged.endsWith(' <eve@example.comx>')).toBe(true);
  });

  it("says the change request's subject, or which change request when it has none", () => {
    expect(commitMessageOf({ subject: 'Reword the handbook', changeRequestId: 'cr1' })).toBe('Reword the handbook');
    expect(commitMessageOf({ subject: '  ', changeRequestId: 'cr1' })).toBe('Merge change request cr1');
  });
});
