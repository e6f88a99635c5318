import { describe, expect, it } from 'vitest';
import { semanticChanges } from './semantic.ts';
import type { Tree, TreeFile, TreePage } from './tree.ts';

const page = (id: string, slug: string, extra: Partial<TreePage> = {}, pages: TreePage[] = []): TreePage => ({
  id,
  type: 'document',
  title: id.toUpperCase(),
  slug,
  documentId: `doc-${id}`,
  createdAt: '',
  updatedAt: '',
  pages,
  ...extra,
});
const file = (id: string, extra: Partial<TreeFile> = {}): TreeFile => ({ id, name: `${id}.png`, contentType: 'image/png', size: 10, blob: `blob-${id}`, ...extra });
const tree = (pages: TreePage[], files: TreeFile[] = [], variables: Record<string, string> = {}): Tree => ({ pages, files, variables });

describe('semanticChanges', () => {
  it('reports nothing between equal trees', () => {
    const t = tree([page('a', 'intro', {}, [page('b', 'setup')])], [file('f')], { v: '1' });
    expect(semanticChanges(t, structuredClone(t))).toEqual({ changes: [], more: 0 });
  });

  it('reports created, edited and deleted pages with their paths, the markdown compared by hash', () => {
    const base = tree([page('a', 'intro'), page('d', 'old')]);
    const head = tree([page('a', 'intro', { title: 'Intro', documentId: 'doc-a2' }, [page('n', 'new')])]);
    expect(semanticChanges(base, head).changes).toEqual([
      {
        type: 'page_edited',
        page: { id: 'a', type: 'document', title: 'Intro', path: 'intro' },
        attributes: { title: { before: 'A', after: 'Intro' }, document: { before: 'doc-a', after: 'doc-a2' } },
      },
      { type: 'page_created', page: { id: 'n', type: 'document', title: 'N', path: 'intro/new' } },
      { type: 'page_deleted', page: { id: 'd', type: 'document', title: 'D', path: 'old' } },
    ]);
  });

  it('reports a field set or cleared with only the side that has it', () => {
    const base = tree([page('a', 'intro', { emoji: '1f600' })]);
    const head = tree([page('a', 'intro', { description: 'About' })]);
    expect(semanticChanges(base, head).changes[0]).toMatchObject({
      attributes: { emoji: { before: '1f600' }, description: { after: 'About' } },
    });
    expect(Object.keys((semanticChanges(base, head).changes[0] as { attributes: Record<string, object> }).attributes.emoji!)).toEqual(['before']);
  });

  it('reports link targets and group fields by page type', () => {
    const base = tree([page('l', 'l', { type: 'link', href: 'https://a.example', documentId: undefined }), page('g', 'g', { type: 'group', documentId: undefined })]);
    const head = tree([page('l', 'l', { type: 'link', href: 'https://b.example', documentId: undefined }), page('g', 'g2', { type: 'group', documentId: undefined })]);
    expect(semanticChanges(base, head).changes.map((c) => (c as { attributes: object }).attributes)).toEqual([
      { target: { before: 'https://a.example', after: 'https://b.example' } },
      { slug: { before: 'g', after: 'g2' } },
    ]);
  });

  it('reports a page moved to another parent, not a reorder among the same siblings', () => {
    const base = tree([page('a', 'a', {}, [page('c', 'c')]), page('b', 'b')]);
    const moved = tree([page('b', 'b', {}, [page('c', 'c')]), page('a', 'a')]);
    expect(semanticChanges(base, moved).changes).toEqual([
      {
        type: 'page_moved',
        page: { id: 'c', type: 'document', title: 'C', path: 'b/c' },
        parent: { before: { id: 'a', type: 'document', title: 'A', path: 'a' }, after: { id: 'b', type: 'document', title: 'B', path: 'b' } },
      },
    ]);
    const toRoot = tree([page('a', 'a'), page('b', 'b'), page('c', 'c')]);
    expect(semanticChanges(base, toRoot).changes).toEqual([
      { type: 'page_moved', page: { id: 'c', type: 'document', title: 'C', path: 'c' }, parent: { before: { id: 'a', type: 'document', title: 'A', path: 'a' } } },
    ]);
  });

  it('reports files and variables after pages', () => {
    const base = tree([], [file('f'), file('g')], { keep: '1', edit: '1', drop: '1' });
    const head = tree([page('p', 'p')], [file('f', { name: 'renamed.png', blob: 'blob-f2' }), file('h')], { keep: '1', edit: '2', add: '3' });
    expect(semanticChanges(base, head, 100).changes).toEqual([
      { type: 'page_created', page: { id: 'p', type: 'document', title: 'P', path: 'p' } },
      { type: 'file_edited', file: head.files[0], attributes: { name: { before: 'f.png', after: 'renamed.png' }, blob: { before: 'blob-f', after: 'blob-f2' } } },
      { type: 'file_created', file: head.files[1] },
      { type: 'file_deleted', file: base.files[1] },
      { type: 'variables_edited', variables: { edit: { before: '1', after: '2' }, drop: { before: '1' }, add: { after: '3' } } },
    ]);
  });

  it('keeps at most the limit and counts the rest', () => {
    const head = tree(Array.from({ length: 15 }, (_, i) => page(`p${i}`, `p${i}`)));
    const result = semanticChanges(tree([]), head);
    expect(result.changes).toHaveLength(10);
    expect(result.changes[9]).toMatchObject({ page: { id: 'p9' } });
    expect(result.more).toBe(5);
    expect(semanticChanges(tree([]), head, 20).more).toBe(0);
  });
});
