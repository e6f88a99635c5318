import type { SpaceCounters, SpaceGitLink } from '@quire/proto/content';
import { preparedStatements, type Database } from '@quire/service-kit/prisma';
import { storedLink, type StoredGitLink } from '../domain/copies.ts';

/** A space's copies as stored; a null version is a copy never received. */
export interface CopyRow {
  spaceId: string;
  countersVersion: number | null;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  gitVersion: number | null;
  gitLink: StoredGitLink | null;
}

// Each write keeps a copy only when its version is newer than the stored one: a redelivered or
// late event (or call) changes nothing. Spaces that are not here (purged, another database's) are
// skipped by the join.
const hot = preparedStatements('content.copies', {
  copies: `SELECT "spaceId", "countersVersion"::float8 AS "countersVersion", comments, "changeRequests", "changeRequestsOpen",
      "changeRequestsDraft", "gitVersion"::float8 AS "gitVersion", "gitLink"
    FROM "SpaceCopy" WHERE "spaceId" = ANY($1)`,
  counters: `INSERT INTO "SpaceCopy" ("spaceId", "countersVersion", comments, "changeRequests", "changeRequestsOpen", "changeRequestsDraft")
    SELECT c.id, c.version, c.comments, c.total, c.open, c.draft
      FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::int[], $6::int[]) AS c(id, version, comments, total, open, draft)
      JOIN "Space" s ON s.id = c.id
    ON CONFLICT ("spaceId") DO UPDATE SET "countersVersion" = EXCLUDED."countersVersion", comments = EXCLUDED.comments,
      "changeRequests" = EXCLUDED."changeRequests", "changeRequestsOpen" = EXCLUDED."changeRequestsOpen",
      "changeRequestsDraft" = EXCLUDED."changeRequestsDraft"
    WHERE "SpaceCopy"."countersVersion" IS NULL OR "SpaceCopy"."countersVersion" < EXCLUDED."countersVersion"`,
  gitLinks: `INSERT INTO "SpaceCopy" ("spaceId", "gitVersion", "gitLink")
    SELECT c.id, c.version, c.link
      FROM unnest($1::text[], $2::bigint[], $3::jsonb[]) AS c(id, version, link)
      JOIN "Space" s ON s.id = c.id
    ON CONFLICT ("spaceId") DO UPDATE SET "gitVersion" = EXCLUDED."gitVersion", "gitLink" = EXCLUDED."gitLink"
    WHERE "SpaceCopy"."gitVersion" IS NULL OR "SpaceCopy"."gitVersion" < EXCLUDED."gitVersion"`,
  missing: `SELECT s.id FROM "Space" s LEFT JOIN "SpaceCopy" c ON c."spaceId" = s.id
    WHERE s.id > $1 AND (c."countersVersion" IS NULL OR c."gitVersion" IS NULL) ORDER BY s.id LIMIT $2`,
});

/** The copies a Space shows from other services (`SpaceCopy`). */
export function createCopyStore(database: Database<unknown>) {
  return {
    async copies(spaceIds: string[]): Promise<Map<string, CopyRow>> {
      if (!spaceIds.length) return new Map();
      const rows = await hot.rows<CopyRow>(database, 'copies', [spaceIds]);
      return new Map(rows.map((r) => [r.spaceId, r]));
    },

    /** Keeps the counters newer than the copy's (one per space); answers how many were kept. */
    async recordCounters(counters: SpaceCounters[]): Promise<number> {
      if (!counters.length) return 0;
      const column = <K extends keyof SpaceCounters>(k: K) => counters.map((c) => c[k]);
      return hot.changed(database, 'counters', [
        column('spaceId'),
        column('version'),
        column('comments'),
        column('changeRequests'),
        column('changeRequestsOpen'),
        column('changeRequestsDraft'),
      ]);
    },

    /** Keeps the links newer than the copy's; `null` for a space the owner has no link of (version 0). */
    async recordGitLinks(links: { spaceId: string; version: number; link: SpaceGitLink | null }[]): Promise<number> {
      if (!links.length) return 0;
      return hot.changed(database, 'gitLinks', [links.map((l) => l.spaceId), links.map((l) => l.version), links.map((l) => (l.link ? JSON.stringify(storedLink(l.link)) : null))]);
    },

    /** Up to `limit` spaces after `after` (by id) lacking a copy, to ask their owners for. */
    async missing(after: string, limit: number): Promise<string[]> {
      return (await hot.rows<{ id: string }>(database, 'missing', [after, limit])).map((r) => r.id);
    },
  };
}

export type CopyStore = ReturnType<typeof createCopyStore>;
