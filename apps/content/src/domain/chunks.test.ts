import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleTree, chunkTree, cut, MAX_CHUNK_ITEMS, sameJson, type ChunkedTree, type PageRecord, type StoredChunk } from './chunks.ts';
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
  return [...c.pages.ids, ...c.files.ids];
};
/** The chunks' items as stored. */
const items = (tree: Tree) => {
  const c = chunkTree(tree);
  return { pages: c.pages.fresh.map((x) => JSON.parse(x.json) as PageRecord[]), files: c.files.fresh.map((x) => JSON.parse(x.json) as TreeFile[]) };
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
    expect(pages.fresh.map((c) => c.id)).toEqual(pages.ids);
    for (const c of [...pages.fresh, ...files.fresh]) expect(c.id).toBe(createHash('sha256').update(c.json).digest('hex'));
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

/** The chunks as a store reads them back: parsed from the JSON written. */
const stored = (c: ChunkedTree) => ({
  pages: c.pages.fresh.map((x): StoredChunk<PageRecord> => ({ id: x.id, items: JSON.parse(x.json) as PageRecord[] })),
  files: c.files.fresh.map((x): StoredChunk<TreeFile> => ({ id: x.id, items: JSON.parse(x.json) as TreeFile[] })),
});

/** Chunks the edit from `before` to `after`, and checks it against cutting `after` whole. */
function rechunked(before: Tree, after: Tree) {
  const previous = chunkTree(before);
  const scratch = chunkTree(after);
  const edited = chunkTree(after, stored(previous));
  expect(edited.pages.ids).toEqual(scratch.pages.ids);
  expect(edited.files.ids).toEqual(scratch.files.ids);
  // Every chunk it names is stored already or written now, with the content cutting whole gives.
  const whole = new Map([...scratch.pages.fresh, ...scratch.files.fresh].map((c) => [c.id, c.json]));
  for (const c of [...edited.pages.fresh, ...edited.files.fresh]) expect(c.json).toBe(whole.get(c.id));
  const known = new Set([...previous.pages.ids, ...previous.files.ids, ...edited.pages.fresh.map((c) => c.id), ...edited.files.fresh.map((c) => c.id)]);
  for (const id of [...edited.pages.ids, ...edited.files.ids]) expect(known.has(id)).toBe(true);
  return edited;
}

// An index into a list of `n`: the first, the last or any, so edits land at both ends as often as inside.
const position = fc.oneof(fc.constant('first' as const), fc.constant('last' as const), fc.nat());
const at = (p: 'first' | 'last' | number, n: number) => (p === 'first' ? 0 : p === 'last' ? n - 1 : p % n);

// An edit of a page (`page`; a move or an insert into `into` at `index`) or of the files (at `index`).
const edit = fc.record({
  kind: fc.constantFrom('insert', 'move', 'delete', 'update', 'insertFile', 'deleteFile'),
  page: position,
  into: position,
  index: position,
});
type Edit = typeof edit extends fc.Arbitrary<infer E> ? E : never;

/** A tree of `parents.length` pages: page i under the page `parents[i]` picks among those before it, or at the root. */
function treeOf(parents: number[], files: number): Tree {
  const pages: TreePage[] = [];
  const made: TreePage[] = [];
  parents.forEach((p, i) => {
    const child = page(`p${i}`);
    const under = p % (made.length + 1);
    (under === made.length ? pages : made[under]!.pages).push(child);
    made.push(child);
  });
  return { pages, files: Array.from({ length: files }, (_, i) => ({ id: `f${i}`, name: `f${i}`, contentType: 'text/plain', size: i, blob: `b${i}` })), variables: {} };
}

/** `tree` with the edits made, as the service makes them: on a copy, the tree itself left alone. */
function edited(tree: Tree, edits: Edit[]): Tree {
  const root = page('', clonePages(tree.pages));
  const files = [...tree.files];
  let made = 0;
  const all = () => flatten(root.pages);
  edits.forEach((e) => {
    if (e.kind === 'insertFile' || e.kind === 'deleteFile') {
      if (e.kind === 'insertFile') files.splice(at(e.index, files.length + 1), 0, { id: `new-file-${made}`, name: 'new', contentType: 'text/plain', size: made++, blob: 'b' });
      else if (files.length) files.splice(at(e.index, files.length), 1);
      return;
    }
    const located = all();
    if (located.length === 0 && e.kind !== 'insert') return;
    const target = located[at(e.page, located.length)];
    if (e.kind === 'update') target!.page.title = `Edited ${made++}`;
    else if (e.kind === 'delete') (target!.parent ?? root).pages.splice(target!.index, 1);
    else {
      const moving = e.kind === 'insert' ? page(`new-${made++}`) : target!.page;
      if (e.kind === 'move') (target!.parent ?? root).pages.splice(target!.index, 1);
      // Into a page outside what moves, or the root.
      const inside = new Set(flatten([moving]).map((l) => l.page.id));
      const hosts = [
        root,
        ...all()
          .map((l) => l.page)
          .filter((p) => !inside.has(p.id)),
      ];
      const host = hosts[at(e.into, hosts.length)]!;
      host.pages.splice(at(e.index, host.pages.length + 1), 0, moving);
    }
  });
  return { pages: root.pages, files, variables: tree.variables };
}

describe("chunks of an edit, cut from its parent's", () => {
  it('are the chunks cutting the edited tree whole gives, whatever the edits (inserts, deletes, moves, updates; first, last, anywhere)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 400, size: 'max' }), fc.nat({ max: 200 }), fc.array(edit, { minLength: 1, maxLength: 6 }), (parents, files, edits) => {
        const tree = treeOf(parents, files);
        rechunked(tree, edited(tree, edits));
      }),
      { numRuns: 500 },
    );
  });

  it('from nothing, and to nothing', () => {
    const tree = bigTree();
    rechunked({ pages: [], files: [], variables: {} }, tree);
    expect(rechunked(tree, { pages: [], files: [], variables: {} }).pages.ids).toEqual([]);
  });

  it("are the parent's, none written, when nothing changed", () => {
    const tree = bigTree();
    const same = rechunked(tree, { ...tree, pages: clonePages(tree.pages) });
    expect([...same.pages.fresh, ...same.files.fresh]).toEqual([]);
  });

  it('write one chunk for a one-page edit of 1,000 pages, wherever the page', () => {
    for (const id of ['s0', 's10p20', 's19p48']) {
      const tree = bigTree();
      const after = { ...tree, pages: clonePages(tree.pages) };
      findPage(after.pages, id)!.page.updatedAt = 'later';
      expect(rechunked(tree, after).pages.fresh).toHaveLength(1);
    }
  });
});

describe('sameJson', () => {
  const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(fc.integer(), { maxLength: 3 }));
  it('is whether JSON.stringify writes the same text, key order and undefined values included', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), value), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), value), (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
        // The same entries in another order, nested.
        const reordered = Object.fromEntries(Object.entries(a).reverse());
        expect(sameJson({ x: a }, { x: reordered })).toBe(JSON.stringify({ x: a }) === JSON.stringify({ x: reordered }));
        expect(sameJson([a], [{ ...a }])).toBe(true);
      }),
    );
  });
});
