import { describe, expect, it } from 'vitest';
import { findPage, findPageByPath, flatten, subtreeIds, uniqueSlug, type TreePage } from './tree.ts';

const page = (id: string, slug: string, pages: TreePage[] = []): TreePage => ({ id, type: 'document', title: id, slug, createdAt: '', updatedAt: '', pages });
const pages = [page('a', 'intro', [page('b', 'setup', [page('c', 'linux')])]), page('d', 'faq')];

describe('tree', () => {
  it('joins slugs from the root into paths, parents before children', () => {
    expect(flatten(pages).map((l) => [l.page.id, l.path, l.index])).toEqual([
      ['a', 'intro', 0],
      ['b', 'intro/setup', 0],
      ['c', 'intro/setup/linux', 0],
      ['d', 'faq', 1],
    ]);
  });

  it('finds pages by id and by path, slashes around the path ignored', () => {
    expect(findPage(pages, 'c')?.parent?.id).toBe('b');
    expect(findPageByPath(pages, '/intro/setup/linux/')?.page.id).toBe('c');
    expect(findPageByPath(pages, 'intro/linux')).toBeUndefined();
  });

  it('makes URL-safe slugs from titles', () => {});

  it('makes slugs unique among siblings, ignoring the page itself', () => {
    const siblings = [page('x', 'intro'), page('y', 'intro-2')];
    expect(uniqueSlug('intro', siblings)).toBe('intro-3');
    expect(uniqueSlug('intro', siblings, 'x')).toBe('intro');
  });

  it('lists a subtree', () => {
    expect(subtreeIds(pages[0]!)).toEqual(['a', 'b', 'c']);
  });
});
