import type { Page } from '@quire/proto/space-content';
import { describe, expect, it } from 'vitest';
import { findByPath, firstPage, neighbours, readingOrder, redirectOf } from './pages.ts';

const p = (id: string, path: string, pages: Page[] = [], over: Partial<Page> = {}): Page =>
  ({ id, type: 'document', title: id, emoji: '', icon: '', description: '', slug: path.split('/').pop()!, path, documentId: '', hidden: false, href: '', pages, ...over }) as Page;

const tree = [
  p('group', 'group', [p('a', 'a'), p('b', 'b', [p('b1', 'b/b1')])], { type: 'group' }),
  p('hidden', 'hidden', [p('h1', 'hidden/h1')], { hidden: true }),
  p('link', 'link', [], { type: 'link', href: 'https://x' }),
  p('c', 'c'),
];

describe('page order', () => {
  it('reads documents depth first, leaving out groups, links and hidden pages with their children', () => {
    expect(readingOrder(tree).map((n) => n.page.id)).toEqual(['a', 'b', 'b1', 'c']);
    expect(firstPage(tree)?.page.id).toBe('a');
  });

  it('finds pages by path with their parents, hidden ones too, never a group', () => {
    expect(findByPath(tree, 'b/b1')?.parents.map((x) => x.id)).toEqual(['group', 'b']);
    expect(findByPath(tree, 'hidden/h1')?.page.id).toBe('h1');
    expect(findByPath(tree, 'group')).toBeUndefined();
  });

  it('gives previous and next in reading order', () => {
    expect(neighbours(tree, 'b1')).toEqual({ previous: expect.objectContaining({ id: 'b' }), next: expect.objectContaining({ id: 'c' }) });
    expect(neighbours(tree, 'a').previous).toBeUndefined();
    expect(neighbours(tree, 'hidden')).toEqual({});
  });
});

describe('redirects', () => {
  const redirects = [
    { path: 'old/b1', pageId: 'b1', anchor: 'part' },
    { path: 'gone', pageId: 'deleted', anchor: '' },
    { path: 'to-group', pageId: 'group', anchor: '' },
  ];
  it('leads an old path to its page and anchor, and nowhere when the page is gone or a group', () => {
    expect(redirectOf(tree, redirects, 'old/b1')).toMatchObject({ page: { id: 'b1' }, anchor: 'part' });
    expect(redirectOf(tree, redirects, 'gone')).toBeUndefined();
    expect(redirectOf(tree, redirects, 'to-group')).toBeUndefined();
    expect(redirectOf(tree, redirects, 'old')).toBeUndefined();
  });
});
