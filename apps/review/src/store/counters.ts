import { preparedStatements } from '@quire/service-kit/prisma';
import type { Db } from './index.ts';

export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  /** Raised by every change of the counts (0 before the first). */
  version: number;
}

const hot = preparedStatements('review', {
  counters: `SELECT s.id AS space_id,
      coalesce(c.total, 0)::int AS "changeRequests", coalesce(c.open, 0)::int AS "changeRequestsOpen",
      coalesce(c.draft, 0)::int AS "changeRequestsDraft", coalesce(m.open, 0)::int AS comments,
      coalesce(v.version, 0)::float8 AS version
    FROM unnest($1::text[]) AS s(id)
    LEFT JOIN space_counters_version v ON v.space_id = s.id
    LEFT JOIN (SELECT space_id, count(*) AS total, count(*) FILTER (WHERE status = 'open') AS open,
                      count(*) FILTER (WHERE status = 'draft') AS draft
                 FROM change_request WHERE space_id = ANY($1) GROUP BY space_id) c ON c.space_id = s.id
    LEFT JOIN (SELECT space_id, count(*) AS open FROM comment WHERE space_id = ANY($1) AND resolved_at IS NULL GROUP BY space_id) m
      ON m.space_id = s.id`,
  // Taken first in its transaction: the row lock orders concurrent bumps, and the counts read after
  // it see every change committed before, so a higher version never holds older counts.
  bump: `INSERT INTO space_counters_version (space_id, version) VALUES ($1, 1)
    ON CONFLICT (space_id) DO UPDATE SET version = space_counters_version.version + 1`,
});

/** The counts of each space's change requests and open comments, versioned for the copies other services keep. */
export function counterStore(database: Db) {
  const { pool } = database;
  return {
    /** Every counter of every space asked for, in one prepared statement (behind every Space shown). */
    async counters(spaceIds: string[]): Promise<Map<string, SpaceCounts>> {
      if (!spaceIds.length) return new Map();
      const rows = await hot.rows<{ space_id: string } & SpaceCounts>(database, 'counters', [spaceIds]);
      return new Map(rows.map(({ space_id, ...counts }) => [space_id, counts]));
    },

    /** After a change of the space's counts: the counts now, at the next version. */
    async bumpCounters(spaceId: string): Promise<SpaceCounts> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx = { pool: client as unknown as typeof pool };
        await hot.changed(tx, 'bump', [spaceId]);
        const [counts] = await hot.rows<{ space_id: string } & SpaceCounts>(tx, 'counters', [[spaceId]]);
        await client.query('COMMIT');
        const { comments, changeRequests, changeRequestsOpen, changeRequestsDraft, version } = counts!;
        return { comments, changeRequests, changeRequestsOpen, changeRequestsDraft, version };
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
