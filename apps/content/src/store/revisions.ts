// Revisions and documents. A revision row is written once, holding its pages and files as lists of
// chunks (src/domain/chunks.ts) that are stored once by content hash, like documents: an edit
// writes the few chunks and documents not stored yet, and a row. The space's active revision
// moves by compare-and-set, and the search index follows in the same transaction.
import { ConflictError } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { UTC_NOW } from '@quire/service-kit/prisma';
import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';
import { chunkTree, type Chunk } from '../domain/chunks.ts';
import type { Redirect } from '../domain/redirects.ts';
import type { ReusableContent } from '../domain/reusable.ts';
import type { DocumentBody } from '../domain/changes.ts';
import { documentPages, type Tree } from '../domain/tree.ts';
import { createDocumentStore } from './documents.ts';
import { createRevisionCache, type StoredRevision } from './revision-cache.ts';
import { analyzedInline, indexCtes, indexParams, sqlOn, writeDocuments, type Sql } from './search-documents.ts';
import { syncSpacePages } from './search-pages.ts';
import type { Db } from './index.ts';

export interface GitCommitInfo {
  oid: string;
  message: string;
  createdByService: boolean;
  url: string;
  ref: string;
}

export interface RevisionRow {
  id: string;
  spaceId: string;
  parents: string[];
  type: string;
  tree: Tree;
  git: GitCommitInfo | null;
  redirects: readonly Redirect[];
  reusableContents: readonly ReusableContent[];
  createdAt: Date;
}

export interface NewRevision {
  spaceId: string;
  parents: string[];
  type: string;
  tree: Tree;
  git?: GitCommitInfo;
  redirects: readonly Redirect[];
  reusableContents: readonly ReusableContent[];
  /** The change request a merge revision merged: at most one revision per change request and space. */
  changeRequestId?: string;
}

export const spaceMovedOn = (spaceId: string) => new ConflictError(`Space "${spaceId}" moved on to another revision; read it again and retry`, 'space_revision_changed');

const UNIQUE_VIOLATION = '23505';

/** Statements in a Prisma transaction, for the writes shared with Prisma's (a duplicated space). */
const prismaSql =
  (tx: Prisma.TransactionClient): Sql =>
  <R>(text: string, values: unknown[]) =>
    tx.$queryRawUnsafe<R[]>(text, ...values);

/**
 * `fn` in one transaction on a client of the pool. Revision writes run here rather than in a
 * Prisma interactive transaction: their statements are few and fixed, and Prisma's compile of each
 * cost more than PostgreSQL's work on an edit (bench/README.md, content-revision).
 */
async function inTransaction<T>(pool: pg.Pool, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const sql = sqlOn(client);
  try {
    await client.query('BEGIN');
    const out = await fn(sql);
    await client.query('COMMIT');
    client.release();
    return out;
  } catch (err) {
    // A client whose ROLLBACK failed is in an unknown state: the pool drops it instead of reusing it.
    const broken = await client.query('ROLLBACK').then(
      () => undefined,
      (e: Error) => e,
    );
    client.release(broken);
    throw err;
  }
}

/** Makes `revisionId` the space's revision if it is still on `expected`, and syncs search's pages. */
async function activate(sql: Sql, spaceId: string, revisionId: string, expected: string, tree: Tree): Promise<void> {
  const moved = await sql(
    `UPDATE "Space" SET "revisionId" = $1, "updatedAt" = ${UTC_NOW}
     WHERE id = $2 AND "revisionId" = $3 AND "deletedAt" IS NULL RETURNING id`,
    [revisionId, spaceId, expected],
  );
  if (moved.length === 0) throw spaceMovedOn(spaceId);
  await syncSpacePages(sql, spaceId, documentPages(tree));
}

// One statement: the chunks not stored yet (a concurrent writer of the same chunk waits for the
// other's commit, then skips it) and the row; with `documents`, the documents and their index
// rows too (search-documents.ts's indexCtes, its parameters after the row's), so that a small edit is
// one statement, atomic without a transaction: one round trip instead of five.
const ROW_PARAMS = 13;
const insertRevision = (documents: boolean) => `
  WITH ${documents ? `${indexCtes(ROW_PARAMS + 1)},` : ''}
  chunks AS (INSERT INTO "TreeChunk" (id, content) SELECT i, c::json FROM unnest($10::text[], $11::text[]) AS u(i, c) ON CONFLICT DO NOTHING)
  INSERT INTO "Revision" (id, "spaceId", parents, type, "pageChunks", "fileChunks", variables, git, redirects, "reusableContents", "changeRequestId", "createdAt")
  VALUES ($1, $2, $3::text[], $4, $5::text[], $6::text[], $7::jsonb, $8::jsonb, $9::jsonb, $12::jsonb, $13, ${UTC_NOW}) RETURNING "createdAt"`;
const INSERT_REVISION = insertRevision(false);
const INSERT_REVISION_AND_DOCUMENTS = insertRevision(true);

// Documents up to this many characters in all are written with their revision in one statement
// without asking first which are stored: parsing one stored already (its rows then skipped) costs
// less than the round trip asking would. Larger ones are asked about first, so a stored document
// is never parsed again.
const UNASKED_DOCUMENT_CHARS = 32_000;

/** `indexLater`: tells search's indexer that a revision just committed left documents to analyze and index. */
export function createRevisionStore(database: Db, indexLater: () => void) {
  const { pool } = database;
  const cache = createRevisionCache(pool);

  return {
    ...createDocumentStore(pool),

    // Plain SQL: pg parses the JSON of the chunks once.
    async getRevision(id: string): Promise<RevisionRow | undefined> {
      const cached = cache.get(id);
      if (cached) return cached;
      const { rows } = await pool.query<StoredRevision>(
        'SELECT id, "spaceId", parents, type, tree, "pageChunks", "fileChunks", variables, git, redirects, "reusableContents", "createdAt" FROM "Revision" WHERE id = $1',
        [id],
      );
      const r = rows[0];
      if (!r) return undefined;
      const { spaceId, parents, type, git, redirects, reusableContents, createdAt } = r;
      const row = { id, spaceId, parents, type, tree: await cache.treeOf(r), git, redirects, reusableContents, createdAt };
      return cache.keep(row, r.tree === null ? { pages: r.pageChunks, files: r.fileChunks } : undefined);
    },

    /**
     * The ids of the space's history from `from` (its active revision, or a revision made in it),
     * newest first: up to `take`, each followed by its first parent while that was made in the
     * space. Empty when `from` is neither.
     */
    async listHistory(spaceId: string, activeRevisionId: string, from: string, take: number): Promise<string[]> {
      const { rows } = await pool.query<{ id: string }>(
        `WITH RECURSIVE chain AS (
           SELECT id, parents, 0 AS depth FROM "Revision" WHERE id = $1 AND ("spaceId" = $2 OR id = $3)
           UNION ALL
           SELECT r.id, r.parents, c.depth + 1 FROM chain c JOIN "Revision" r ON r.id = c.parents[1] AND r."spaceId" = $2
           WHERE c.depth + 1 < $4
         )
         SELECT id FROM chain ORDER BY depth`,
        [from, spaceId, activeRevisionId, take],
      );
      return rows.map((r) => r.id);
    },

    /**
     * Writes the revision and the documents not stored yet, analyzed and indexed for search (or
     * tells the indexer, once committed, when they are many: see writeDocuments); with `activate`, also
     * makes it the space's revision if the space is still on `activate.expected` (ABORTED
     * otherwise, and nothing is written). One transaction.
     */
    async writeRevision(r: NewRevision, documents: Map<string, DocumentBody>, activateOn?: { expected: string }): Promise<RevisionRow> {
      const id = newId();
      // Cut from its first parent's chunks when they are kept: an edit cuts and hashes what it changed.
      const cut = chunkTree(r.tree, cache.keptChunks(r.parents[0]));
      // Chunks are never changed nor removed: those kept here are stored.
      const unsure = new Map([...cut.pages.fresh, ...cut.files.fresh].filter((c) => !cache.hasChunk(c.id)).map((c) => [c.id, c]));
      const row = (freshChunks: Chunk[]) => [
        id,
        r.spaceId,
        r.parents,
        r.type,
        cut.pages.ids,
        cut.files.ids,
        JSON.stringify(r.tree.variables),
        r.git ? JSON.stringify(r.git) : null,
        JSON.stringify(r.redirects),
        freshChunks.map((c) => c.id),
        freshChunks.map((c) => c.json),
        JSON.stringify(r.reusableContents),
        r.changeRequestId ?? null,
      ];
      // Two merges of one change request racing: the other one committed its merge first.
      const merged = (err: { code?: string }) => {
        throw err.code === UNIQUE_VIOLATION && r.changeRequestId ? spaceMovedOn(r.spaceId) : err;
      };
      let markdownChars = 0;
      for (const { markdown } of documents.values()) markdownChars += markdown.length;
      let createdAt: Date;
      if (!activateOn && markdownChars <= UNASKED_DOCUMENT_CHARS) {
        // One statement (see insertRevision): the chunks not kept, which it skips if stored, and the documents.
        const docs = [...documents].map(([docId, body]) => ({ id: docId, ...body }));
        const params = row([...unsure.values()]);
        const { rows } = await pool
          .query<{ createdAt: Date }>(docs.length ? INSERT_REVISION_AND_DOCUMENTS : INSERT_REVISION, docs.length ? [...params, ...indexParams(docs)] : params)
          .catch(merged);
        createdAt = rows[0]!.createdAt;
      } else {
        // Documents and chunks stored already are left alone (a document not even parsed): asked for at once.
        const stored =
          documents.size || unsure.size
            ? (
                await pool.query<{ documents: string[]; chunks: string[] }>(
                  `SELECT array(SELECT id FROM "Document" WHERE id = ANY($1::text[])) AS documents, array(SELECT id FROM "TreeChunk" WHERE id = ANY($2::text[])) AS chunks`,
                  [[...documents.keys()], [...unsure.keys()]],
                )
              ).rows[0]!
            : { documents: [], chunks: [] };
        const known = new Set(stored.documents);
        const fresh = [...documents].filter(([docId]) => !known.has(docId)).map(([docId, body]) => ({ id: docId, ...body }));
        const storedChunks = new Set(stored.chunks);
        const freshChunks = [...unsure.values()].filter((c) => !storedChunks.has(c.id));
        // More than are analyzed inline (an import): stored unanalyzed on a connection of their
        // own while the transaction writes the revision and the space's pages, PostgreSQL doing
        // both at once; asked for before the transaction's connection, so the pool serves it first.
        // Documents are immutable by content hash: stored, they are harmless should the revision
        // fail, and the revision commits only once they are (nothing shows it without them).
        const apart = analyzedInline(fresh.length) ? undefined : writeDocuments(sqlOn(pool), fresh);
        apart?.catch(() => undefined);
        const written = await inTransaction(pool, async (sql) => {
          // Few are analyzed as written, in the transaction: a concurrent writer of the same
          // document waits here for the other's commit, then skips it.
          const documentsStored = apart ?? (fresh.length ? await writeDocuments(sql, fresh) : { unanalyzed: false });
          const rows = await sql<{ createdAt: Date }>(INSERT_REVISION, row(freshChunks)).catch(merged);
          if (activateOn) await activate(sql, r.spaceId, id, activateOn.expected, r.tree);
          const { unanalyzed } = await documentsStored;
          return { createdAt: rows[0]!.createdAt, unanalyzed };
        });
        createdAt = written.createdAt;
        if (written.unanalyzed) indexLater();
      }
      // Kept as a reader would have them, parsed from what was stored.
      for (const c of unsure.values()) cache.keepChunk(c.id, c.json);
      const written: RevisionRow = {
        id,
        spaceId: r.spaceId,
        parents: r.parents,
        type: r.type,
        tree: r.tree,
        git: r.git ?? null,
        redirects: r.redirects,
        reusableContents: r.reusableContents,
        createdAt,
      };
      return cache.keep(written, { pages: cut.pages.ids, files: cut.files.ids });
    },

    /** The revision the change request was merged as in the space, if it was. */
    async changeRequestMerge(spaceId: string, changeRequestId: string): Promise<string | undefined> {
      const { rows } = await pool.query<{ id: string }>('SELECT id FROM "Revision" WHERE "spaceId" = $1 AND "changeRequestId" = $2', [spaceId, changeRequestId]);
      return rows[0]?.id;
    },

    /** Compare-and-set of the space's revision; ABORTED when it is no longer on `expected`. */
    async setSpaceRevision(spaceId: string, revision: RevisionRow, expected: string): Promise<void> {
      await inTransaction(pool, (sql) => activate(sql, spaceId, revision.id, expected, revision.tree));
    },

    /** Search's pages for a space that starts on an existing revision (a duplicate), in the transaction creating it. */
    async syncPages(tx: Prisma.TransactionClient, spaceId: string, revision: RevisionRow): Promise<void> {
      await syncSpacePages(prismaSql(tx), spaceId, documentPages(revision.tree));
    },
  };
}

export type RevisionStore = ReturnType<typeof createRevisionStore>;
