import { describe, expect, it } from 'vitest';
import { checkOpen, checkTransition, isOutdated, parseReference, statusFilter } from './change-requests.ts';

describe('change request rules', () => {
  it('moves freely between draft, open and archived, never by hand to or from merged', () => {
    expect(() => checkTransition(1, 'open', 'draft')).not.toThrow();
    expect(() => checkTransition(1, 'archived', 'open')).not.toThrow();
    expect(() => checkTransition(1, 'open', 'merged')).toThrow(/merging/);
    expect(() => checkTransition(2, 'merged', 'open')).toThrow(/#2 is merged/);
    expect(() => checkTransition(2, 'merged', 'merged')).not.toThrow();
  });

  it('merges only open change requests', () => {
    expect(() => checkOpen(3, 'open', 'merged')).not.toThrow();
    expect(() => checkOpen(3, 'draft', 'merged')).toThrow(/#3 is draft/);
  });

  it('is outdated when the space moved past its base (the last update, else where it started)', () => {
    const cr = { status: 'open' as const, revisionInitial: 'r1', revisionMergedAncestor: null };
    expect(isOutdated(cr, 'r1')).toBe(false);
    expect(isOutdated(cr, 'r2')).toBe(true);
    expect(isOutdated({ ...cr, revisionMergedAncestor: 'r2' }, 'r2')).toBe(false);
    expect(isOutdated({ ...cr, status: 'merged' }, 'r2')).toBe(false);
  });

  it('reads a path reference as a number or an id, and the list filter with its default', () => {
    expect(parseReference('12')).toEqual({ number: 12 });
    expect(parseReference('abc12')).toEqual({ id: 'abc12' });
    expect(statusFilter('')).toBe('open');
    expect(statusFilter('all')).toBeUndefined();
    expect(() => statusFilter('closed')).toThrow(/status: must be one of/);
  });
});
