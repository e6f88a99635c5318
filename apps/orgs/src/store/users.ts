import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';

export type UserRow = Prisma.UserGetPayload<object>;

/** Accounts, and which of them a viewer may see. */
export function userStore(database: Db) {
  const db = database.prisma;
  return {
    setPasswordHash(userId: string, passwordHash: string) {
      return db.user.update({ where: { id: userId }, data: { passwordHash } });
    },

    getUser(id: string) {
      return db.user.findUnique({ where: { id } });
    },

    findUserByEmail(email: string) {
      return db.user.findUnique({ where: { email } });
    },

    createUser(data: { id: string; email: string; displayName: string; passwordHash?: string }) {
      return db.user.create({ data });
    },

    /** The user, when the viewer is that user or shares an organization with them. */
    async userVisibleTo(userId: string, viewerId: string): Promise<UserRow | null> {
      if (userId === viewerId) return db.user.findUnique({ where: { id: userId } });
      return db.user.findFirst({
        where: { id: userId, memberships: { some: { organization: { members: { some: { userId: viewerId } } } } } },
      });
    },

    async usersVisibleTo(userIds: string[], viewerId: string): Promise<UserRow[]> {
      return db.user.findMany({
        where: { id: { in: userIds }, OR: [{ id: viewerId }, { memberships: { some: { organization: { members: { some: { userId: viewerId } } } } } }] },
      });
    },
  };
}
