import { rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma, Role as DbRole } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';

export type LinkInviteRow = Prisma.LinkInviteGetPayload<object>;

/** Invitations: by email, and links anyone holding them may join with. */
export function inviteStore(database: Db) {
  const db = database.prisma;
  return {
    /**
     * Everyone invited is a member afterwards, all or none: existing users join, unknown emails
     * get an account. Existing members keep their role. Answers the user ids and those who joined.
     */
    async invite(organizationId: string, invitees: { email: string; displayName: string; id: string; role: DbRole | null }[], sso: boolean) {
      return db.$transaction(async (tx) => {
        const users: string[] = [];
        const joined: { userId: string; role: DbRole | null }[] = [];
        for (const i of invitees) {
          const user = await tx.user.upsert({ where: { email: i.email }, create: { id: i.id, email: i.email, displayName: i.displayName }, update: {} });
          const existing = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId: user.id } } });
          if (!existing) {
            await tx.member.create({ data: { organizationId, userId: user.id, role: i.role, sso } });
            joined.push({ userId: user.id, role: i.role });
          }
          users.push(user.id);
        }
        return { users, joined };
      });
    },

    listLinkInvites(organizationId: string, page: Page): Promise<LinkInviteRow[]> {
      return db.linkInvite.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        ...rowsAfter(page),
      });
    },

    createLinkInvite(data: { id: string; organizationId: string; role: DbRole | null; createdBy: string }): Promise<LinkInviteRow> {
      return db.linkInvite.create({ data });
    },

    /** Deletes the invite if it is the organization's; false when there was none. */
    async deleteLinkInvite(organizationId: string, id: string): Promise<boolean> {
      const { count } = await db.linkInvite.deleteMany({ where: { id, organizationId } });
      return count > 0;
    },
  };
}
