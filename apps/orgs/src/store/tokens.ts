import { rowsAfter, type Page } from '@quire/service-kit';
import { preparedStatements } from '@quire/service-kit/prisma';
import type { Prisma } from '../generated/prisma/client.ts';
import type { DbTokenScope } from '../domain/credentials.ts';
import type { Db } from './index.ts';

export type { DbTokenScope };
export type ApiTokenRow = Prisma.ApiTokenGetPayload<object>;

const hot = preparedStatements('orgs', {
  // A live token, its use noted at most once a minute (one write per minute, not per call).
  tokenAuth: `WITH t AS (
      SELECT id, "userId", scope::text AS scope, "expiresAt", "lastUsedAt" FROM "ApiToken"
      WHERE hash = $1 AND ("expiresAt" IS NULL OR "expiresAt" > now())),
    touched AS (UPDATE "ApiToken" SET "lastUsedAt" = now()
      WHERE id IN (SELECT id FROM t WHERE "lastUsedAt" IS NULL OR "lastUsedAt" < now() - interval '1 minute'))
    SELECT "userId", scope, "expiresAt" FROM t`,
});

/** API tokens: what authenticates a call made with a bearer token. */
export function tokenStore(database: Db) {
  const db = database.prisma;
  return {
    /** The user, scope and expiry of a live token. */
    tokenByHash(hash: string) {
      return hot<{ userId: string; scope: DbTokenScope; expiresAt: Date | null }>(database, 'tokenAuth', [hash]);
    },

    createToken(userId: string, id: string, hash: string, label?: string, scope: DbTokenScope = 'write', expiresAt?: Date) {
      return db.apiToken.create({ data: { id, userId, hash, label: label ?? null, scope, expiresAt: expiresAt ?? null } });
    },

    /** The user's tokens, newest first. */
    listTokens(userId: string, page: Page) {
      return db.apiToken.findMany({
        where: { userId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        ...rowsAfter(page),
      });
    },

    /** Deletes the user's token; its hash, or null when the user has no such token. */
    async revokeToken(userId: string, id: string): Promise<string | null> {
      const rows = await db.apiToken.findMany({ where: { id, userId }, select: { hash: true } });
      if (rows.length === 0) return null;
      await db.apiToken.deleteMany({ where: { id, userId } });
      return rows[0]!.hash;
    },
  };
}
