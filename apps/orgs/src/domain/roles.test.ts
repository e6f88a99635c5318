import { describe, expect, it } from 'vitest';
import { keepAnAdmin } from './roles.ts';

describe('keepAnAdmin', () => {
  it('refuses to demote or remove the last admin, and nothing else', () => {
    expect(() => keepAnAdmin('admin', 'read', 1)).toThrow('The organization must keep at least one admin');
    expect(() => keepAnAdmin('admin', 'removed', 1)).toThrow(/at least one admin/);
    expect(() => keepAnAdmin('admin', null, 1)).toThrow(/at least one admin/);
    expect(() => keepAnAdmin('admin', 'read', 2)).not.toThrow();
    expect(() => keepAnAdmin('admin', 'admin', 1)).not.toThrow();
    expect(() => keepAnAdmin('edit', 'removed', 1)).not.toThrow();
  });
});
