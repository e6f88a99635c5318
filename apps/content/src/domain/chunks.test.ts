import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assembleTree, chunkTree, cut, MAX_CHUNK_ITEMS, type PageRecord } from './chunks.ts';
import { clonePages, findPage, flatten, type Tree, type TreeFile, type TreePage } from './tree.ts';

const page = (id: string, pages: TreePage[] = []): TreePage => ({
  id,
  type: 'document',
  title: `Page ${id}`,
  slug: id,
  documentId: `doc-${id}`,
  createdAt: 'c',
  updatedAt: 'u',
  pages,
});

/** 20 sections of 50 pages, a few files and variables: the shape of the content-revision bench. */
function bigTree(): Tree {
  const pages = Array.from({ length: 20 }, (_, s) =>
    page(
      `s${s}`,
      Array.from({ length: 49 }, (_, i) => page(`s${s}p${i}`)),
    ),
  );
  pages[3]!.pages[7]!.pages = [page('deep', [page('deeper')])];
  const files = Array.from({ length: 100 }, (_, i) => ({ id: `f${i}`, name: `f${i}.png`, contentType: 'image/png', size: i, blob: `b${i}` }));
  return { pages, files, variables: { product: 'Quire' } };
}

const ids = (tree: Tree) => {
  const c = chunkTree(tree);
  return [...c.pages, ...c.files].map((x) => x.id);
};
/** The chunks' items as stored. */
const items = (tree: Tree) => {
  const c = chunkTree(tree);
  return { pages: c.pages.map((x) => JSON.parse(x.json) as PageRecord[]), files: c.files.map((x) => JSON.parse(x.json) as TreeFile[]) };
};
const changed = (before: Tree, after: Tree) => {
  const old = new Set(ids(before));
  return ids(after).filter((id) => !old.has(id));
};

describe('chunks', () => {
  it('assemble the tree they were cut from, nesting, files and variables', () => {
    const tree = bigTree();
    const { pages, files } = items(tree);
    expect(assembleTree(pages, files, tree.variables)).toEqual(tree);
    expect(assembleTree([], [], {})).toEqual({ pages: [], files: [], variables: {} });
  });

  it('are named by the SHA-256 of their JSON, the same content giving the same chunks', () => {
    const { pages, files } = chunkTree(bigTree());
    for (const c of [...pages, ...files]) expect(c.id).toBe(createHash('sha256').update(c.json).digest('hex'));
    expect(ids(bigTree())).toEqual(ids(bigTree()));
    // Written as JSON.stringify writes what it reads back: the same tree read and written again is the same chunks.
    const { pages: records, files: fileRecords } = items(bigTree());
    expect(ids(assembleTree(records, fileRecords, {}))).toEqual(ids(bigTree()));
  });

  it('hold pages in reading order with their depth, about 32 a chunk for 1,000 pages', () => {
    const tree = bigTree();
    const { pages } = items(tree);
    const records = pages.flat();
    expect(records.map(([depth, page]) => [page.id, depth])).toEqual(flatten(tree.pages).map((l) => [l.page.id, l.path.split('/').length - 1]));
    expect(records.find(([, page]) => page.id === 'deeper')![0]).toBe(3);
    expect(records.every(([, page]) => !('pages' in page))).toBe(true);
    expect(pages.length).toBeGreaterThan(1002 / 64);
    expect(pages.length).toBeLessThan(1002 / 16);
  });

  it('change only the chunk of an edited page', () => {
    const before = bigTree();
    const after = { ...before, pages: clonePages(before.pages) };
    findPage(after.pages, 's12p30')!.page.title = 'Edited';
    expect(changed(before, after)).toHaveLength(1);
    expect(changed(before, { ...before, variables: { product: 'Other' } })).toHaveLength(0);
  });

  it('change at most the two chunks around an inserted or deleted page, and those a move leaves and enters', () => {
    const before = bigTree();
    const inserted = { ...before, pages: clonePages(before.pages) };
    inserted.pages[5]!.pages.splice(10, 0, page('new-page'));
    expect(changed(before, inserted).length).toBeLessThanOrEqual(2);

    const deleted = { ...before, pages: clonePages(before.pages) };
    deleted.pages[5]!.pages.splice(10, 1);
    expect(changed(before, deleted)).toHaveLength(1);

    const moved = { ...before, pages: clonePages(before.pages) };
    const [page12] = moved.pages[2]!.pages.splice(12, 1);
    moved.pages[17]!.pages.push(page12!);
    expect(changed(before, moved).length).toBeLessThanOrEqual(2);
  });

  it(`cut a run without a boundary at ${MAX_CHUNK_ITEMS} items`, () => {
    // Ids none of which ends a chunk: each stays in one run with the item after it.
    const id = (x: string) => x;
    const plain = Array.from({ length: 2000 }, (_, i) => `x${i}`).filter((x) => cut([x, 'next'], id).length === 1);
    expect(plain.length).toBeGreaterThan(3 * MAX_CHUNK_ITEMS);
    expect(cut(plain.slice(0, 3 * MAX_CHUNK_ITEMS), id).map((r) => r.length)).toEqual([MAX_CHUNK_ITEMS, MAX_CHUNK_ITEMS, MAX_CHUNK_ITEMS]);
  });

  it('refuse records whose depths do not nest', () => {
    const { pages: _, ...fields } = page('a');
    expect(() => assembleTree([[[1, fields]]], [], {})).toThrow(/depth 1/);
  });
});
