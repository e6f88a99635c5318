import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneTemplate, type TestDatabase } from '@quire/service-kit/testing';
import { chunkTree, type PageRecord } from '../src/domain/chunks.ts';
import { clonePages, findPage, type Tree, type TreePage } from '../src/domain/tree.ts';
import { openStore } from '../src/store/index.ts';
import type { NewRevision } from '../src/store/revisions.ts';

// The revision store on real PostgreSQL: revisions written as chunks shared with their parents,
// read back as written by a process that kept nothing, rows from before chunks, concurrent edits.

let database: TestDatabase;
let sql: pg.Client;
const opened: (() => Promise<void>)[] = [];

/** A store as a fresh process has it: nothing kept. */
function freshStore() {
  const { store, close } = openStore(database.url, 3);
  opened.push(close);
  return store.revisions;
}

beforeAll(async () => {
  database = await cloneTemplate('content');
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
});

afterAll(async () => {
  await Promise.all(opened.map((close) => close()));
  await sql.end();
  await database.drop();
});

const at = '2026-01-02T03:04:05.000Z';
const page = (id: string, pages: TreePage[] = []): TreePage => ({
  id,
  type: 'document',
  title: `Page ${id}`,
  slug: `p-${id}`,
  documentId: `doc-${id}`,
  createdAt: at,
  updatedAt: at,
  pages,
});

/** 1,000 pages (20 sections of 50) with every optional field somewhere, files and variables. */
function bigTree(prefix: string): Tree {
  const pages = Array.from({ length: 20 }, (_, s) =>
    page(
      `${prefix}s${s}`,
      Array.from({ length: 49 }, (_, i) => page(`${prefix}s${s}p${i}`)),
    ),
  );
  pages[0]!.pages[0] = { ...page(`${prefix}odd`), emoji: '1f600', icon: 'book', description: 'Described', hidden: true, git: { oid: 'abc', path: 'odd.md' } };
  pages[1]!.pages[2] = {
    id: `${prefix}link`,
    type: 'link',
    title: 'Out',
    slug: 'out',
    href: 'https://example.com',
    createdAt: at,
    updatedAt: at,
    pages: [page(`${prefix}under-link`)],
  };
  pages[2] = { ...pages[2]!, type: 'group', documentId: undefined };
  delete pages[2].documentId;
  const files = Array.from({ length: 40 }, (_, i) => ({
    id: `${prefix}f${i}`,
    name: `f${i}.png`,
    contentType: 'image/png',
    size: i,
    blob: `blob${i}`,
    ...(i % 2 ? { dimensions: { width: i, height: 2 * i } } : { git: { oid: 'def', path: `f${i}.png` } }),
  }));
  return { pages, files, variables: { product: 'Quire', version: '2' } };
}

const revision = (spaceId: string, tree: Tree, parents: string[] = []): NewRevision => ({
  spaceId,
  parents,
  type: 'edits',
  tree,
  redirects: [{ path: 'old/path', pageId: tree.pages[0]?.id ?? '', anchor: '' }],
  reusableContents: [],
});

/** The tree with the page `id` retitled: a one-page edit. */
function edited(tree: Tree, id: string, title: string): Tree {
  const pages = clonePages(tree.pages);
  findPage(pages, id)!.page.title = title;
  return { ...tree, pages };
}

const chunkCount = async () => Number((await sql.query('SELECT count(*) AS n FROM "TreeChunk"')).rows[0].n);
const chunkLists = async (id: string) => (await sql.query('SELECT "pageChunks", "fileChunks", tree FROM "Revision" WHERE id = $1', [id])).rows[0];

describe('revision store', () => {
  it('stores a one-page edit as one new chunk and a row, sharing every other chunk with its parent', async () => {
    const revisions = freshStore();
    const tree = bigTree('a');
    const first = await revisions.writeRevision(revision('space-a', tree), new Map());
    const before = await chunkCount();
    const next = await revisions.writeRevision(revision('space-a', edited(tree, 'as7p20', 'Edited'), [first.id]), new Map());
    expect(await chunkCount()).toBe(before + 1);

    const [a, b] = [await chunkLists(first.id), await chunkLists(next.id)];
    expect(a.tree).toBeNull();
    expect(b.fileChunks).toEqual(a.fileChunks);
    expect(b.pageChunks).toHaveLength(a.pageChunks.length);
    const changed = b.pageChunks.filter((id: string, i: number) => id !== a.pageChunks[i]);
    expect(changed).toHaveLength(1);
    const { rows } = await sql.query('SELECT content::text AS json FROM "TreeChunk" WHERE id = $1', [changed[0]]);
    expect((JSON.parse(rows[0].json) as PageRecord[]).find(([, p]) => p.id === 'as7p20')![1].title).toBe('Edited');
    // What the edit wrote beside its row: one chunk, a small part of the tree's JSON.
    expect(rows[0].json.length * 10).toBeLessThan(JSON.stringify(tree).length);

    // The same tree again (a revert, a rewrite of the same content) writes no chunk at all.
    await revisions.writeRevision(revision('space-a', tree, [next.id]), new Map());
    expect(await chunkCount()).toBe(before + 1);
  });

  it("writes an edit of a kept revision as cutting its whole tree would, its chunks re-cut from the parent's", async () => {
    const revisions = freshStore();
    const tree = bigTree('g');
    const first = await revisions.writeRevision(revision('space-g', tree), new Map());
    // Pages inserted at the start, one deleted at the end, one moved across the tree, a file removed.
    const pages = clonePages(tree.pages);
    pages.unshift(page('gnew1'), page('gnew2'));
    pages[19]!.pages.pop();
    const [moved] = pages[4]!.pages.splice(3, 1);
    pages[15]!.pages.splice(8, 0, moved!);
    const after = { ...tree, pages, files: tree.files.slice(1) };
    const before = await chunkCount();
    const next = await revisions.writeRevision(revision('space-g', after, [first.id]), new Map());
    const whole = chunkTree(after);
    expect(await chunkLists(next.id)).toMatchObject({ pageChunks: whole.pages.ids, fileChunks: whole.files.ids });
    const parent = await chunkLists(first.id);
    const added = [...whole.pages.ids, ...whole.files.ids].filter((id) => ![...parent.pageChunks, ...parent.fileChunks].includes(id));
    expect(await chunkCount()).toBe(before + added.length);
    expect(added.length).toBeLessThanOrEqual(6);
    expect((await freshStore().getRevision(next.id))!.tree).toEqual(after);
  });

  it("writes a small edit's documents with its row in one statement: all of it, or nothing", async () => {
    const revisions = freshStore();
    const tree = bigTree('h');
    const docs = (markdown: string) => new Map([[`doc-${markdown.length}-${markdown.slice(0, 8)}`, { markdown }]]);
    const first = await revisions.writeRevision({ ...revision('space-h', tree), changeRequestId: 'cr-h' }, docs('# Kept\n\nSee [the guide](https://example.com/guide).'));
    const stored = async (id: string) =>
      (
        await sql.query(
          `SELECT (SELECT count(*) FROM "Document" WHERE id = $1)::int AS documents, (SELECT count(*) FROM "DocumentSection" WHERE "documentId" = $1)::int AS sections,
                  (SELECT count(*) FROM "DocumentLink" WHERE "documentId" = $1)::int AS links`,
          [id],
        )
      ).rows[0];
    const [keptId] = docs('# Kept\n\nSee [the guide](https://example.com/guide).').keys();
    expect(await stored(keptId!)).toEqual({ documents: 1, sections: 1, links: 1 });
    // A document stored already, given again: written once, its rows not doubled.
    await revisions.writeRevision(revision('space-h', tree, [first.id]), docs('# Kept\n\nSee [the guide](https://example.com/guide).'));
    expect(await stored(keptId!)).toEqual({ documents: 1, sections: 1, links: 1 });
    // A second merge of the same change request fails: its document is not written either.
    const lost = docs('# Lost\n\nNever stored.');
    await expect(revisions.writeRevision({ ...revision('space-h', tree, [first.id]), changeRequestId: 'cr-h' }, lost)).rejects.toThrow(/moved on/);
    expect(await stored([...lost.keys()][0]!)).toEqual({ documents: 0, sections: 0, links: 0 });
  });

  it('reads a revision back exactly as written, in a process that kept nothing', async () => {
    const tree = bigTree('b');
    const written = await freshStore().writeRevision(
      { ...revision('space-b', tree), git: { oid: 'c0ffee', message: 'Import', createdByService: false, url: 'u', ref: 'main' } },
      new Map(),
    );
    const read = await freshStore().getRevision(written.id);
    expect(read).toEqual({ ...written, createdAt: read!.createdAt });
    expect(read!.tree).toEqual(bigTree('b'));
    expect(read!.createdAt.getTime()).toBe(written.createdAt.getTime());
    expect(await freshStore().getRevision('no-such-revision')).toBeUndefined();
  });

  it('reads the chunks it does not keep, and only those', async () => {
    const writer = freshStore();
    const tree = bigTree('c');
    const first = await writer.writeRevision(revision('space-c', tree), new Map());
    const next = await writer.writeRevision(revision('space-c', edited(tree, 'cs3p3', 'Changed')), new Map());
    const reader = freshStore();
    await reader.getRevision(first.id);
    // The chunks both revisions hold, gone from the table: the reader still has them, a fresh process does not.
    const { pageChunks } = await chunkLists(next.id);
    const common = (await chunkLists(first.id)).pageChunks.filter((id: string) => pageChunks.includes(id));
    expect(common).toHaveLength(pageChunks.length - 1);
    const saved = await sql.query('SELECT id, content::text AS json FROM "TreeChunk" WHERE id = ANY($1)', [common]);
    await sql.query('DELETE FROM "TreeChunk" WHERE id = ANY($1)', [common]);
    try {
      expect((await reader.getRevision(next.id))!.tree).toEqual(edited(tree, 'cs3p3', 'Changed'));
      await expect(freshStore().getRevision(next.id)).rejects.toThrow(/is not stored/);
    } finally {
      await sql.query('INSERT INTO "TreeChunk" (id, content) SELECT * FROM unnest($1::text[], $2::json[])', [saved.rows.map((r) => r.id), saved.rows.map((r) => r.json)]);
    }
  });

  it('reads rows written before chunks, and edits them into chunks', async () => {
    const tree = bigTree('d');
    // As the store wrote a revision before chunks: the whole tree in the row.
    await sql.query(
      `INSERT INTO "Revision" (id, "spaceId", parents, type, tree, redirects, "reusableContents") VALUES ('old-rev', 'space-d', '{}', 'edits', $1::jsonb, '[]', '[]')`,
      [JSON.stringify(tree)],
    );
    const revisions = freshStore();
    const old = await revisions.getRevision('old-rev');
    expect(old!.tree).toEqual(tree);
    const next = await revisions.writeRevision(revision('space-d', edited(old!.tree, 'ds1p1', 'New')), new Map());
    expect((await chunkLists(next.id)).tree).toBeNull();
    expect((await freshStore().getRevision(next.id))!.tree).toEqual(edited(tree, 'ds1p1', 'New'));
    // Documents are found in the trees of such rows as in chunks (the first test's space has only those).
    expect(await revisions.spaceHasDocument('space-d', 'old-rev', 'doc-ds0p1')).toBe(true);
    expect(await revisions.spaceHasDocument('space-a', 'no-revision', 'doc-as19p48')).toBe(true);
    expect(await revisions.spaceHasDocument('space-a', 'no-revision', 'doc-ds0p1')).toBe(false);
    expect(await revisions.spaceHasDocument('space-x', next.id, 'doc-ds19p48')).toBe(true);
    expect(await revisions.spaceHasDocument('space-x', 'no-revision', 'doc-ds19p48')).toBe(false);
  });

  it('takes concurrent edits of one revision from several processes, each read back as written', async () => {
    const tree = bigTree('e');
    const base = await freshStore().writeRevision(revision('space-e', tree), new Map());
    const before = await chunkCount();
    // Eight processes: four edit different pages, four make the same edit (the same new chunk).
    const trees = [...['es1p1', 'es5p5', 'es9p9', 'es13p13'].map((id) => edited(tree, id, `Edited ${id}`)), ...Array.from({ length: 4 }, () => edited(tree, 'es17p0', 'Same'))];
    const written = await Promise.all(trees.map((t) => freshStore().writeRevision(revision('space-e', t, [base.id]), new Map())));
    expect(await chunkCount()).toBe(before + 5);
    const reader = freshStore();
    for (const [i, w] of written.entries()) expect((await reader.getRevision(w.id))!.tree).toEqual(trees[i]);
    const expected = chunkTree(trees[0]!).pages.ids;
    expect((await chunkLists(written[0]!.id)).pageChunks).toEqual(expected);
  });
});
