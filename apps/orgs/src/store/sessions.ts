import { preparedStatements } from '@quire/service-kit/prisma';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';

const hot = preparedStatements('orgs', {
  // A live session (within its absolute and idle lifetimes, $2 ms); its idle clock restarts when
  // a tenth of the idle lifetime has passed since it last did, so a busy session writes rarely.
  sessionAuth: `WITH s AS (
      SELECT id, "userId", "expiresAt", "lastSeenAt" FROM "Session"
      WHERE hash = $1 AND "expiresAt" > now() AND "lastSeenAt" > now() - $2 * interval '1 millisecond'),
    touched AS (UPDATE "Session" SET "lastSeenAt" = now()
      WHERE id IN (SELECT id FROM s WHERE "lastSeenAt" < now() - $2 * interval '100 microseconds')
      RETURNING "lastSeenAt")
    SELECT s."userId", s."expiresAt", COALESCE((SELECT "lastSeenAt" FROM touched), s."lastSeenAt") AS "lastSeenAt" FROM s`,
});

/** Browser sessions. */
export function sessionStore(database: Db) {
  const db = database.prisma;
  return {
    /** A new session; the browser's previous one (by hash) ends in the same transaction. */
    async createSession(data: { id: string; hash: string; userId: string; method: string; expiresAt: Date; ip?: string; userAgent?: string }, previousHash?: string) {
      const [, created] = await db.$transaction([
        db.session.deleteMany({ where: { hash: previousHash ?? '' } }),
        db.session.create({ data: { ...data, ip: data.ip ?? null, userAgent: data.userAgent ?? null } }),
      ]);
      return created;
    },

    /** The user of a live session, and when it ends at the latest if unused (idle lifetime `idleMs`). */
    sessionByHash(hash: string, idleMs: number) {
      return hot<{ userId: string; expiresAt: Date; lastSeenAt: Date }>(database, 'sessionAuth', [hash, idleMs]);
    },

    async endSession(hash: string): Promise<boolean> {
      return (await db.session.deleteMany({ where: { hash } })).count > 0;
    },

    /** Ends the user's sessions but the one kept; the hashes of those ended. */
    async endSessionsOf(userId: string, keepHash?: string): Promise<string[]> {
      const where: Prisma.SessionWhereInput = { userId, ...(keepHash ? { hash: { not: keepHash } } : {}) };
      const rows = await db.session.findMany({ where, select: { hash: true } });
      await db.session.deleteMany({ where: { hash: { in: rows.map((r) => r.hash) } } });
      return rows.map((r) => r.hash);
    },
  };
}
