// Revisions and documents. A revision row is written once, with its whole tree as one JSON value;
// documents are keyed by content hash, so only those not stored yet are written. The space's
// active revision moves by compare-and-set, and the search index follows in the same transaction.
import { ConflictError } from '@quire/service-kit';
import { Prisma } from '../generated/prisma/client.ts';
import { documentPages, readTree, type Tree } from '../domain/tree.ts';
import { indexDocuments, syncSpacePages } from './search.ts';
import { newId, type Db } from './index.ts';

type Tx = Prisma.TransactionClient;

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
  createdAt: Date;
}

export interface NewRevision {
  spaceId: string;
  parents: string[];
  type: string;
  tree: Tree;
  git?: GitCommitInfo;
}

// Prisma keeps DateTime as UTC in `timestamp(3)` columns, whatever the session's time zone.
const UTC_NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

// Large imports index many documents in one transaction; Prisma's default 5 s is too short.
const TX = { maxWait: 10_000, timeout: 120_000 };

const spaceMovedOn = (spaceId: string) => new ConflictError(`Space "${spaceId}" moved on to another revision; read it again and retry`, 'space_revision_changed');

/** Makes `revisionId` the space's revision if it is still on `expected`, and syncs search's pages. */
async function activate(tx: Tx, spaceId: string, revisionId: string, expected: string, tree: Tree): Promise<void> {
  const n = await tx.$executeRaw`
    UPDATE "Space" SET "revisionId" = ${revisionId}, "updatedAt" = ${UTC_NOW}
    WHERE id = ${spaceId} AND "revisionId" = ${expected} AND "deletedAt" IS NULL`;
  if (n === 0) throw spaceMovedOn(spaceId);
  await syncSpacePages(tx, spaceId, documentPages(tree));
}

export function createRevisionStore(database: Db) {
  const { prisma: db, pool } = database;
  return {
    // Plain SQL: the tree of a large space is big, and pg parses the JSON once.
    async getRevision(id: string): Promise<RevisionRow | undefined> {
      const { rows } = await pool.query('SELECT id, "spaceId", parents, type, tree, git, "createdAt" FROM "Revision" WHERE id = $1', [id]);
      const r = rows[0];
      return r && { ...r, tree: readTree(r.tree) };
    },

    /** Markdown by document id, for the ids that exist. */
    async getDocuments(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const { rows } = await pool.query<{ id: string; markdown: string }>('SELECT id, markdown FROM "Document" WHERE id = ANY($1::text[])', [[...new Set(ids)]]);
      return new Map(rows.map((r) => [r.id, r.markdown]));
    },

    /** Whether the document belongs to one of the space's revisions (the active one is checked first, by index). */
    async spaceHasDocument(spaceId: string, activeRevisionId: string, documentId: string): Promise<boolean> {
      const { rows } = await pool.query(
        `SELECT EXISTS (SELECT 1 FROM "SpacePage" WHERE "spaceId" = $1 AND "documentId" = $3)
             OR EXISTS (SELECT 1 FROM "Revision" WHERE ("spaceId" = $1 OR id = $2)
                          AND jsonb_path_exists(tree, '$.**.documentId ? (@ == $d)', jsonb_build_object('d', $3::text))) AS found`,
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
      return db.$transaction(async (tx) => {
        if (documents.size) {
          const ids = [...documents.keys()];
          const inserted = await tx.$queryRaw<{ id: string }[]>`
            INSERT INTO "Document" (id, markdown) SELECT * FROM unnest(${ids}::text[], ${ids.map((d) => documents.get(d)!)}::text[])
            ON CONFLICT DO NOTHING RETURNING id`;
          await indexDocuments(
            tx,
            inserted.map((d) => ({ id: d.id, markdown: documents.get(d.id)! })),
          );
        }
        const rows = await tx.$queryRaw<{ createdAt: Date }[]>`
          INSERT INTO "Revision" (id, "spaceId", parents, type, tree, git, "createdAt")
          VALUES (${id}, ${r.spaceId}, ${r.parents}::text[], ${r.type}, ${JSON.stringify(r.tree)}::jsonb, ${r.git ? JSON.stringify(r.git) : null}::jsonb, ${UTC_NOW})
          RETURNING "createdAt"`;
        if (activateOn) await activate(tx, r.spaceId, id, activateOn.expected, r.tree);
        return { id, spaceId: r.spaceId, parents: r.parents, type: r.type, tree: r.tree, git: r.git ?? null, createdAt: rows[0]!.createdAt };
      }, TX);
    },

    /** Compare-and-set of the space's revision; ABORTED when it is no longer on `expected`. */
    async setSpaceRevision(spaceId: string, revision: RevisionRow, expected: string): Promise<void> {
      await db.$transaction((tx) => activate(tx, spaceId, revision.id, expected, revision.tree), TX);
    },

    /** Search's pages for a space that starts on an existing revision (a duplicate). */
    async syncPages(tx: Tx, spaceId: string, revisionId: string): Promise<void> {
      const rows = await tx.$queryRaw<{ tree: unknown }[]>`SELECT tree FROM "Revision" WHERE id = ${revisionId}`;
      if (rows[0]) await syncSpacePages(tx, spaceId, documentPages(readTree(rows[0].tree)));
    },
  };
}

export type RevisionStore = ReturnType<typeof createRevisionStore>;
