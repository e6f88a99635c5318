// Revisions and documents. A revision row is written once, with its whole tree as one JSON value;
// documents are keyed by content hash, so only those not stored yet are written. The space's
// active revision moves by compare-and-set, and the search index follows in the same transaction.
import { ConflictError } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Redirect } from '../domain/redirects.ts';
import type { ReusableContent } from '../domain/reusable.ts';
import { documentPages, flatten, readTree, type Tree } from '../domain/tree.ts';
import type { JSONDocument } from '@quire/document';
import { convertDocuments, writeDocuments, syncSpacePages, type Sql } from './search.ts';
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

// Prisma keeps DateTime as UTC in `timestamp(3)` columns, whatever the session's time zone.
const UTC_NOW = `(now() AT TIME ZONE 'UTC')`;

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
 * cost more than PostgreSQL's work on an edit (bench/README.md, content revisions).
 */
async function inTransaction<T>(pool: pg.Pool, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const sql: Sql = async <R>(text: string, values: unknown[]) => (await client.query(text, values)).rows as R[];
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

// Revisions never change once written, and an edit starts from the revision the previous edit
// wrote: the last ones read or written are kept parsed (a large tree costs more to read and parse
// than the edit), up to this many pages in all.
const CACHED_PAGES = 5_000;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The rows, most recently used last; frozen, as every caller shares them. */
function revisionCache() {
  const rows = new Map<string, { row: RevisionRow; pages: number }>();
  let pages = 0;
  return {
    get(id: string): RevisionRow | undefined {
      const hit = rows.get(id);
      if (!hit) return undefined;
      rows.delete(id);
      rows.set(id, hit);
      return hit.row;
    },
    add(row: RevisionRow): RevisionRow {
      const size = Math.max(1, flatten(row.tree.pages).length);
      if (rows.has(row.id) || size > CACHED_PAGES) return row;
      for (const [id, old] of rows) {
        if (pages + size <= CACHED_PAGES) break;
        rows.delete(id);
        pages -= old.pages;
      }
      rows.set(row.id, { row: deepFreeze(row), pages: size });
      pages += size;
      return row;
    },
  };
}

export function createRevisionStore(database: Db) {
  const { pool } = database;
  const cache = revisionCache();
  return {
    // Plain SQL: the tree of a large space is big, and pg parses the JSON once.
    async getRevision(id: string): Promise<RevisionRow | undefined> {
      const cached = cache.get(id);
      if (cached) return cached;
      const { rows } = await pool.query('SELECT id, "spaceId", parents, type, tree, git, redirects, "reusableContents", "createdAt" FROM "Revision" WHERE id = $1', [id]);
      const r = rows[0];
      return r && cache.add({ ...r, tree: readTree(r.tree) });
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

    /** Markdown by document id, for the ids that exist. */
    async getDocuments(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const { rows } = await pool.query<{ id: string; markdown: string }>('SELECT id, markdown FROM "Document" WHERE id = ANY($1::text[])', [[...new Set(ids)]]);
      return new Map(rows.map((r) => [r.id, r.markdown]));
    },

    /** Markdown and its document (null if not converted yet, see convertStoredDocuments) by document id, for the ids that exist. */
    async getStoredDocuments(ids: string[]): Promise<Map<string, { markdown: string; document: JSONDocument | null }>> {
      if (ids.length === 0) return new Map();
      const { rows } = await pool.query<{ id: string; markdown: string; document: JSONDocument | null }>(
        'SELECT id, markdown, document FROM "Document" WHERE id = ANY($1::text[])',
        [[...new Set(ids)]],
      );
      return new Map(rows.map((r) => [r.id, { markdown: r.markdown, document: r.document }]));
    },

    /**
     * Converts documents stored before the document model, `batch` at a time (a transaction each),
     * until none is left; safe beside other replicas doing the same. Answers how many it converted.
     */
    async convertStoredDocuments(batch = 200): Promise<number> {
      let converted = 0;
      let after = '';
      for (;;) {
        const { rows } = await pool.query<{ id: string; markdown: string }>('SELECT id, markdown FROM "Document" WHERE document IS NULL AND id > $1 ORDER BY id LIMIT $2', [
          after,
          batch,
        ]);
        if (rows.length === 0) return converted;
        await inTransaction(pool, (sql) => convertDocuments(sql, rows));
        converted += rows.length;
        after = rows[rows.length - 1]!.id;
      }
    },

    /** Whether the document belongs to one of the space's revisions, a page's or a reusable content's (the active one's pages are checked first, by index). */
    async spaceHasDocument(spaceId: string, activeRevisionId: string, documentId: string): Promise<boolean> {
      const { rows } = await pool.query(
        `SELECT EXISTS (SELECT 1 FROM "SpacePage" WHERE "spaceId" = $1 AND "documentId" = $3)
             OR EXISTS (SELECT 1 FROM "Revision" WHERE ("spaceId" = $1 OR id = $2)
                          AND (jsonb_path_exists(tree, '$.**.documentId ? (@ == $d)', jsonb_build_object('d', $3::text))
                            OR jsonb_path_exists("reusableContents", '$[*].documentId ? (@ == $d)', jsonb_build_object('d', $3::text)))) AS found`,
        [spaceId, activeRevisionId, documentId],
      );
      return rows[0].found as boolean;
    },

    /**
     * Writes the revision and the documents not stored yet, and indexes those for search; with
     * `activate`, also makes it the space's revision if the space is still on `activate.expected`
     * (ABORTED otherwise, and nothing is written). One transaction.
     */
    async writeRevision(r: NewRevision, documents: Map<string, string>, activateOn?: { expected: string }): Promise<RevisionRow> {
      const id = newId();
      // Documents are never changed nor removed: one stored already is left alone, not even parsed.
      const stored = documents.size ? (await pool.query<{ id: string }>('SELECT id FROM "Document" WHERE id = ANY($1::text[])', [[...documents.keys()]])).rows : [];
      const known = new Set(stored.map((d) => d.id));
      const fresh = [...documents].filter(([docId]) => !known.has(docId)).map(([docId, markdown]) => ({ id: docId, markdown }));
      const written = await inTransaction(pool, async (sql) => {
        // A concurrent writer of the same document waits here for the other's commit, then skips it.
        if (fresh.length) await writeDocuments(sql, fresh);
        const rows = await sql<{ createdAt: Date }>(
          `INSERT INTO "Revision" (id, "spaceId", parents, type, tree, git, redirects, "reusableContents", "changeRequestId", "createdAt")
           VALUES ($1, $2, $3::text[], $4, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb, $9, ${UTC_NOW}) RETURNING "createdAt"`,
          [
            id,
            r.spaceId,
            r.parents,
            r.type,
            JSON.stringify(r.tree),
            r.git ? JSON.stringify(r.git) : null,
            JSON.stringify(r.redirects),
            JSON.stringify(r.reusableContents),
            r.changeRequestId ?? null,
          ],
        ).catch((err: { code?: string }) => {
          // Two merges of one change request racing: the other one committed its merge first.
          throw err.code === UNIQUE_VIOLATION && r.changeRequestId ? spaceMovedOn(r.spaceId) : err;
        });
        if (activateOn) await activate(sql, r.spaceId, id, activateOn.expected, r.tree);
        return {
          id,
          spaceId: r.spaceId,
          parents: r.parents,
          type: r.type,
          tree: r.tree,
          git: r.git ?? null,
          redirects: r.redirects,
          reusableContents: r.reusableContents,
          createdAt: rows[0]!.createdAt,
        };
      });
      return cache.add(written);
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
    async syncPages(tx: Prisma.TransactionClient, spaceId: string, revisionId: string): Promise<void> {
      const rows = await tx.$queryRaw<{ tree: unknown }[]>`SELECT tree FROM "Revision" WHERE id = ${revisionId}`;
      if (rows[0]) await syncSpacePages(prismaSql(tx), spaceId, documentPages(readTree(rows[0].tree)));
    },
  };
}

export type RevisionStore = ReturnType<typeof createRevisionStore>;
