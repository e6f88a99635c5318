import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@quire/service-kit';
import { openDatabaseStore } from '@quire/service-kit/prisma';
import { cloneTemplate, type TestDatabase } from '@quire/service-kit/testing';
import { fromMarkdown, type JSONDocument } from '@quire/document';
import type { DocumentBody } from '../src/domain/changes.ts';
import type { Tree, TreePage } from '../src/domain/tree.ts';
import { PrismaClient } from '../src/generated/prisma/client.ts';
import { openStore } from '../src/store/index.ts';
import { createRevisionStore } from '../src/store/revisions.ts';
import { createSearchStore } from '../src/store/search.ts';
import { INDEX_INLINE_DOCUMENTS } from '../src/store/search-documents.ts';

// Search's index of a revision that brings many documents, on real PostgreSQL: its documents stored
// unanalyzed with the revision, its pages found by their titles meanwhile, analyzed and indexed by
// the indexer once told (after the commit), or first by what reads their links and headings; a
// small revision analyzed and indexed as it is written.

let database: TestDatabase;
let sql: pg.Client;
let told = 0;
let stores: { search: ReturnType<typeof createSearchStore>; revisions: ReturnType<typeof createRevisionStore> };
const closing: (() => Promise<void>)[] = [];
let spaces: ReturnType<typeof openStore>['store'];
let pool: pg.Pool;

beforeAll(async () => {
  database = await cloneTemplate('content');
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  const log = createLogger('content-test', 'silent');
  // The revision store tells a counter, not the indexer: the test runs the index itself.
  const opened = openDatabaseStore(
    PrismaClient,
    (db) => {
      pool = db.pool;
      return { search: createSearchStore(db, log), revisions: createRevisionStore(db, () => told++) };
    },
    database.url,
    3,
  );
  stores = opened.store;
  const full = openStore(database.url, 2);
  spaces = full.store;
  closing.push(async () => {
    await stores.search.stopIndexing();
    await opened.close();
  }, full.close);
  // The sweeps at start, over an empty database: the next ones are a period away.
  await Promise.all([stores.search.indexed(), spaces.search.indexed()]);
});

afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
  await sql.end();
  await database.drop();
});

const at = '2026-01-02T03:04:05.000Z';
const page = (space: string, i: number): TreePage => ({
  id: `${space}-${i}`,
  type: 'document',
  title: `Chapter ${i}`,
  slug: `chapter-${i}`,
  documentId: `${space}-doc-${i}`,
  createdAt: at,
  updatedAt: at,
  pages: [],
});

const zeppelin = (name: string, i: number) => `The zeppelin ${name} number ${i} lands.\n\n## Mooring\n\nRopes ${i}, then [the next](chapter-${i + 1}.md).\n`;

/** An empty private space of the test organization. */
const newSpace = (title: string) =>
  spaces.createSpace({ organizationId: 'org', parentId: null, title, emoji: '', visibility: 'private', editMode: 'live', defaultLevel: 'read', position: 0 });

/** A space whose revision brings `n` new documents, each a section about a zeppelin (`given`: some with the client's model). */
async function writeSpace(name: string, n: number, given = new Map<number, JSONDocument>()) {
  const space = await newSpace(name);
  const tree: Tree = { pages: Array.from({ length: n }, (_, i) => page(name, i)), files: [], variables: {} };
  const documents = new Map<string, DocumentBody>(tree.pages.map((p, i) => [p.documentId!, { markdown: zeppelin(name, i), document: given.get(i) }]));
  await stores.revisions.writeRevision({ spaceId: space.id, parents: [space.revisionId!], type: 'edits', tree, redirects: [], reusableContents: [] }, documents, {
    expected: space.revisionId!,
  });
  return space.id;
}

const found = async (spaceId: string, words: string) => {
  const query = (await stores.search.tsquery(words))!;
  return (await stores.search.searchPages([spaceId], query, 0, 1000)).map((p) => p.title);
};
const unindexed = async (spaceId: string) =>
  (
    await sql.query(
      `SELECT (SELECT count(*) FROM "Document" d JOIN "SpacePage" sp ON sp."documentId" = d.id WHERE sp."spaceId" = $1 AND NOT d.analyzed)::int AS documents,
        (SELECT count(*) FROM "DocumentSection" ds JOIN "SpacePage" sp ON sp."documentId" = ds."documentId" WHERE sp."spaceId" = $1 AND ds.language IS NULL)::int AS sections,
        (SELECT count(*) FROM "SpacePage" WHERE "spaceId" = $1 AND content IS NULL)::int AS pages`,
      [spaceId],
    )
  ).rows[0];
const stored = async (documentId: string) => (await sql.query('SELECT document, analyzed FROM "Document" WHERE id = $1', [documentId])).rows[0];

describe('the search index of a revision', () => {
  it('indexes a revision of few new documents as it writes it', async () => {
    const spaceId = await writeSpace('small', INDEX_INLINE_DOCUMENTS);
    expect(told).toBe(0);
    expect(await unindexed(spaceId)).toEqual({ documents: 0, sections: 0, pages: 0 });
    expect(await found(spaceId, 'zeppelin small mooring')).toHaveLength(INDEX_INLINE_DOCUMENTS);
  });

  it('leaves a revision of many new documents to the indexer, told after the commit, its pages found by title meanwhile', async () => {
    const n = INDEX_INLINE_DOCUMENTS + 1;
    const spaceId = await writeSpace('large', n);
    expect(told).toBe(1);
    expect(await unindexed(spaceId)).toEqual({ documents: n, sections: 0, pages: n });
    expect(await stored('large-doc-7')).toEqual({ document: null, analyzed: false });
    expect(await found(spaceId, 'zeppelin large')).toEqual([]);
    expect(await found(spaceId, 'chapter 7')).toEqual(['Chapter 7']);

    expect(await stores.search.reindex()).toEqual({ documents: n, sections: 0, pages: n, failed: [] });
    expect(await unindexed(spaceId)).toEqual({ documents: 0, sections: 0, pages: 0 });
    expect(await stored('large-doc-7')).toEqual({ document: fromMarkdown(zeppelin('large', 7)), analyzed: true });
    expect((await found(spaceId, 'zeppelin large mooring')).sort()).toEqual(Array.from({ length: n }, (_, i) => `Chapter ${i}`).sort());
    expect(await stores.search.reindex()).toEqual({ documents: 0, sections: 0, pages: 0, failed: [] });
  });

  it('keeps the model a client gave with a document of a large revision, and indexes that model', async () => {
    const given = fromMarkdown('The airship lands.\n\n## Hangar\n\nDoors.\n');
    const spaceId = await writeSpace('given', INDEX_INLINE_DOCUMENTS + 1, new Map([[4, given]]));
    expect(await stored('given-doc-4')).toEqual({ document: given, analyzed: false });
    await stores.search.reindex();
    expect(await stored('given-doc-4')).toEqual({ document: given, analyzed: true });
    expect(await found(spaceId, 'airship hangar')).toEqual(['Chapter 4']);
    expect(await found(spaceId, 'zeppelin given number 4')).toEqual([]);
  });

  it('analyzes a document the indexer has not reached when its headings or links are read', async () => {
    const spaceId = await writeSpace('early', INDEX_INLINE_DOCUMENTS + 1);
    expect(await stores.search.documentAnchors(['early-doc-2', 'early-doc-3'])).toEqual(
      new Map([
        ['early-doc-2', [{ anchor: 'mooring', title: 'Mooring' }]],
        ['early-doc-3', [{ anchor: 'mooring', title: 'Mooring' }]],
      ]),
    );
    expect(await stored('early-doc-2')).toMatchObject({ analyzed: true });
    expect(await stores.search.documentLinks(['early-doc-6'])).toEqual([{ documentId: 'early-doc-6', relation: 'link', kind: 'page', target: 'path:chapter-7.md', anchor: '' }]);
    expect(await unindexed(spaceId)).toMatchObject({ documents: INDEX_INLINE_DOCUMENTS - 2 });
    // The indexer then does the rest, and the pages of the three.
    expect(await stores.search.reindex()).toEqual({ documents: INDEX_INLINE_DOCUMENTS - 2, sections: 0, pages: INDEX_INLINE_DOCUMENTS + 1, failed: [] });
    expect(await unindexed(spaceId)).toEqual({ documents: 0, sections: 0, pages: 0 });
  });

  it('leaves a document it cannot analyze, and analyzes the others of its batch and what reads ask for', async () => {
    const spaceId = await writeSpace('broken', INDEX_INLINE_DOCUMENTS + 1);
    // A model stored broken (a JSON value that is no document): reading its sections fails.
    await sql.query(`UPDATE "Document" SET document = '{"nodes": 5}'::jsonb WHERE id = 'broken-doc-9'`);
    expect(await stores.search.documentAnchors(['broken-doc-8', 'broken-doc-9'])).toEqual(new Map([['broken-doc-8', [{ anchor: 'mooring', title: 'Mooring' }]]]));
    expect(await stores.search.reindex()).toEqual({ documents: INDEX_INLINE_DOCUMENTS - 1, sections: 0, pages: INDEX_INLINE_DOCUMENTS, failed: ['broken-doc-9'] });
    expect(await unindexed(spaceId)).toEqual({ documents: 1, sections: 0, pages: 1 });
    expect(await found(spaceId, 'chapter 9')).toEqual(['Chapter 9']);
    // Set right (here by hand), it is analyzed at the next run.
    await sql.query(`UPDATE "Document" SET document = NULL WHERE id = 'broken-doc-9'`);
    expect(await stores.search.reindex()).toEqual({ documents: 1, sections: 0, pages: 1, failed: [] });
  });

  it('writes the vector of a page whose document is not indexed yet once it is, whoever wrote the page', async () => {
    const n = INDEX_INLINE_DOCUMENTS + 1;
    const spaceId = await writeSpace('shared', n);
    // A small revision of another space reusing one of those documents while they wait.
    const other = await newSpace('other');
    const tree: Tree = { pages: [page('shared', 3)], files: [], variables: {} };
    await stores.revisions.writeRevision({ spaceId: other.id, parents: [other.revisionId!], type: 'edits', tree, redirects: [], reusableContents: [] }, new Map(), {
      expected: other.revisionId!,
    });
    expect(await unindexed(other.id)).toEqual({ documents: 1, sections: 0, pages: 1 });
    expect(await found(other.id, 'zeppelin')).toEqual([]);

    await stores.search.reindex();
    expect(await unindexed(spaceId)).toEqual({ documents: 0, sections: 0, pages: 0 });
    expect(await found(other.id, 'zeppelin shared')).toEqual(['Chapter 3']);
  });

  it('writes the page of a document not stored yet, as a statement beside it sees it, without its vector until the indexer does', async () => {
    // A large revision's documents are committed on a connection of their own while its pages are
    // written: a page can be written before its document shows.
    const other = await newSpace('late');
    const tree: Tree = { pages: [page('late', 0)], files: [], variables: {} };
    await stores.revisions.writeRevision({ spaceId: other.id, parents: [other.revisionId!], type: 'edits', tree, redirects: [], reusableContents: [] }, new Map(), {
      expected: other.revisionId!,
    });
    expect(await unindexed(other.id)).toEqual({ documents: 0, sections: 0, pages: 1 });
    expect(await stores.search.reindex()).toEqual({ documents: 0, sections: 0, pages: 0, failed: [] });

    // Its document then stored (here by a small revision of another space, analyzed as written).
    await writeSpace('late', 1);
    expect(await stores.search.reindex()).toMatchObject({ pages: 1 });
    expect(await unindexed(other.id)).toEqual({ documents: 0, sections: 0, pages: 0 });
    expect(await found(other.id, 'zeppelin late mooring')).toEqual(['Chapter 0']);
  });

  it('writes a large revision through a pool of one connection: its documents are asked for before the transaction', async () => {
    const single = openDatabaseStore(PrismaClient, (db) => createRevisionStore(db, () => undefined), database.url, 1);
    try {
      const space = await newSpace('single');
      const n = INDEX_INLINE_DOCUMENTS + 1;
      const tree: Tree = { pages: Array.from({ length: n }, (_, i) => page('single', i)), files: [], variables: {} };
      const documents = new Map<string, DocumentBody>(tree.pages.map((p, i) => [p.documentId!, { markdown: zeppelin('single', i) }]));
      await single.store.writeRevision({ spaceId: space.id, parents: [space.revisionId!], type: 'edits', tree, redirects: [], reusableContents: [] }, documents, {
        expected: space.revisionId!,
      });
      expect(await unindexed(space.id)).toEqual({ documents: n, sections: 0, pages: n });
      // A revision that fails (the space moved on) leaves its documents stored, and nothing else.
      const moved = { pages: [page('moved', 0), ...Array.from({ length: n }, (_, i) => page('moved', i + 1))], files: [], variables: {} };
      const more = new Map<string, DocumentBody>(moved.pages.map((p, i) => [p.documentId!, { markdown: zeppelin('moved', i) }]));
      await expect(
        single.store.writeRevision({ spaceId: space.id, parents: [space.revisionId!], type: 'edits', tree: moved, redirects: [], reusableContents: [] }, more, {
          expected: space.revisionId!,
        }),
      ).rejects.toThrow(/moved on to another revision/);
      expect(await stored('moved-doc-3')).toEqual({ document: null, analyzed: false });
      expect((await sql.query('SELECT count(*)::int AS n FROM "SpacePage" WHERE "documentId" LIKE $1', ['moved-doc-%'])).rows[0]).toEqual({ n: 0 });
    } finally {
      await single.close();
    }
  });

  it('writes without JIT, whose compiling of a bulk write cost more than the write', async () => {
    const clients = await Promise.all([pool.connect(), pool.connect()]);
    try {
      for (const client of clients) expect((await client.query('SHOW jit')).rows[0]).toEqual({ jit: 'off' });
    } finally {
      for (const client of clients) client.release();
    }
  });

  it('indexes, once told, what a revision left, however many are told at once', async () => {
    const spaceId = await writeSpace('told', INDEX_INLINE_DOCUMENTS + 1);
    for (let i = 0; i < 5; i++) spaces.search.indexLater();
    await spaces.search.indexed();
    expect(await unindexed(spaceId)).toEqual({ documents: 0, sections: 0, pages: 0 });
    expect(await found(spaceId, 'zeppelin told')).toHaveLength(INDEX_INLINE_DOCUMENTS + 1);
  });
});
