import type { Page } from '@quire/service-kit';
import type { Level } from '../domain/access.ts';
import type { Principal } from '../domain/grants.ts';
import type { Db } from './index.ts';

/** Roles granted to users and teams on spaces and collections. */
export function createGrantStore({ prisma: db }: Db) {
  return {
    /**
     * Replaces the grants of `principals` on the space (or collection `kind`) with `level`, or
     * removes them when it is null; all or nothing.
     */
    async setGrants(kind: 'space' | 'collection', itemId: string, principals: Principal[], level: Level | null): Promise<void> {
      const keys = principals.map((p) => ({ principalType: p.type, principalId: p.id }));
      await db.$transaction(async (tx) => {
        if (kind === 'space') {
          await tx.spaceGrant.deleteMany({ where: { spaceId: itemId, OR: keys } });
          if (level) await tx.spaceGrant.createMany({ data: keys.map((k) => ({ ...k, spaceId: itemId, role: level })) });
        } else {
          await tx.collectionGrant.deleteMany({ where: { collectionId: itemId, OR: keys } });
          if (level) await tx.collectionGrant.createMany({ data: keys.map((k) => ({ ...k, collectionId: itemId, role: level })) });
        }
      });
    },

    /** The users granted a role on the space itself, by user id. */
    async listSpaceUserGrants(spaceId: string, page: Page): Promise<{ userId: string; role: Level }[]> {
      const rows = await db.spaceGrant.findMany({
        where: { spaceId, principalType: 'user', ...(page.after ? { principalId: { gt: page.after } } : {}) },
        orderBy: { principalId: 'asc' },
        take: page.take,
      });
      return rows.map((r) => ({ userId: r.principalId, role: r.role }));
    },

    /** Changes the user's grant on the space; false when it has none. */
    async updateSpaceUserGrant(spaceId: string, userId: string, level: Level): Promise<boolean> {
      return (await db.spaceGrant.updateMany({ where: { spaceId, principalType: 'user', principalId: userId }, data: { role: level } })).count > 0;
    },

    /** Removes the user's grant on the space; false when it had none. */
    async removeSpaceUserGrant(spaceId: string, userId: string): Promise<boolean> {
      return (await db.spaceGrant.deleteMany({ where: { spaceId, principalType: 'user', principalId: userId } })).count > 0;
    },
  };
}
