import { describe, expect, it } from 'vitest';
import { checkRedirects, mergeWhole } from './redirects.ts';
import type { TreePage } from './tree.ts';

const page = (id: string, pages: TreePage[] = []): TreePage => ({ id, type: 'document', title: id, slug: id, createdAt: '', updatedAt: '', pages });

describe('redirects', () => {
  it('trims slashes and the anchor’s #, and finds pages at any depth', () => {
    expect(checkRedirects([{ path: '/a/b/', pageId: 'child', anchor: '#x' }], [page('top', [page('child')])])).toEqual([{ path: 'a/b', pageId: 'child', anchor: 'x' }]);
  });

  it('merges by the side that changed them from the base, ours when both did', () => {
    const base = [{ path: 'a', pageId: 'p', anchor: '' }];
    const changed = [{ path: 'b', pageId: 'p', anchor: '' }];
    const other = [{ path: 'c', pageId: 'p', anchor: '' }];
    expect(mergeWhole(base, base, changed)).toBe(changed);
    expect(mergeWhole(base, changed, base)).toBe(changed);
    expect(mergeWhole(base, changed, other)).toBe(changed);
  });
});
