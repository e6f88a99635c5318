import { describe, expect, it } from 'vitest';
import { Role } from '@quire/policy';
import { checkDefaultLevel, checkEmoji, checkTitle, checkVisibility, copyTitle, visibilityAtRoot } from './fields.ts';
import { purgeCutoff, restorable } from './lifecycle.ts';

describe('fields', () => {
  it('bounds titles and emoji, naming the field', () => {
    expect(checkTitle('x'.repeat(50))).toHaveLength(50);
    expect(() => checkTitle('x'.repeat(51))).toThrow('title: must be between 1 and 50 characters (got 51)');
    expect(checkEmoji('🎉')).toBe('🎉');
    expect(checkEmoji('1f389')).toBe('1f389');
    expect(checkEmoji('')).toBe('');
    expect(() => checkEmoji('abc')).toThrow(/^emoji: /);
  });

  it('keeps in-collection for spaces in a collection', () => {
    expect(checkVisibility('in-collection', 'c1')).toBe('in-collection');
    expect(() => checkVisibility('in-collection', null)).toThrow(/^visibility: in-collection/);
    expect(() => checkVisibility('secret', null)).toThrow(/^visibility: must be one of/);
    expect(visibilityAtRoot('in-collection')).toBe('private');
    expect(visibilityAtRoot('public')).toBe('public');
  });

  it('maps default levels, refusing unknown roles', () => {
    expect(checkDefaultLevel(Role.ROLE_UNSPECIFIED)).toBe('inherit');
    expect(checkDefaultLevel(Role.ROLE_GUEST)).toBe('guest');
    expect(checkDefaultLevel(Role.ROLE_EDIT)).toBe('edit');
    expect(() => checkDefaultLevel(42 as unknown as Role)).toThrow(/^defaultLevel: /);
  });

  it('titles a copy within the bound', () => {
    expect(copyTitle('Guide')).toBe('Guide (copy)');
    expect(copyTitle('x'.repeat(50))).toBe('x'.repeat(43) + ' (copy)');
  });
});

describe('lifecycle', () => {
  const deletedAt = new Date('2026-01-01T00:00:00Z');
  it('restores within 7 days and purges after', () => {
    expect(restorable(deletedAt, new Date('2026-01-08T00:00:00Z'))).toBe(true);
    expect(restorable(deletedAt, new Date('2026-01-08T00:00:01Z'))).toBe(false);
    expect(purgeCutoff(new Date('2026-01-08T00:00:00Z'))).toEqual(deletedAt);
  });
});
