import { NotFoundError, type Page } from '@quire/service-kit';
import { preparedStatements } from '@quire/service-kit/prisma';
import type { Prisma, Role as DbRole } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';
import type { UserRow } from './users.ts';

export type MemberRow = Prisma.MemberGetPayload<{ include: { user: true } }>;

// The members of the pairs ($1[i], $2[i]), `k.key` the pair's position.
export const MEMBERS_OF_KEYS = `unnest($1::text[], $2::text[]) WITH ORDINALITY AS k("organizationId", "userId", key)
      JOIN "Member" m ON m."organizationId" = k."organizationId" AND m."userId" = k."userId"`;
export type MemberKey = { organizationId: string; userId: string };
export const memberKeys = (keys: readonly MemberKey[]) => [keys.map((k) => k.organizationId), keys.map((k) => k.userId)];

const hot = preparedStatements('orgs', {
  // Memberships of (organization, user) pairs, many calls' at once (`hot.loader`).
  memberships: `SELECT k.key, m.role::text AS role, ARRAY(
      SELECT tm."teamId" FROM "TeamMember" tm JOIN "Team" t ON t.id = tm."teamId"
      WHERE tm."userId" = m."userId" AND t."organizationId" = m."organizationId") AS "teamIds"
    FROM ${MEMBERS_OF_KEYS}`,
});

/** Memberships of organizations: roles, and who belongs where. */
export function memberStore(database: Db) {
  const db = database.prisma;
  const loadMembership = hot.loader<MemberKey, { role: DbRole | null; teamIds: string[] }>(database, 'memberships', memberKeys);
  return {
    organizationIdsOf(userId: string): Promise<string[]> {
      return db.member.findMany({ where: { userId }, select: { organizationId: true } }).then((rows) => rows.map((r) => r.organizationId));
    },

    /** The users among `userIds` who are members of the organization. */
    async membersAmong(organizationId: string, userIds: string[]): Promise<UserRow[]> {
      return db.user.findMany({ where: { id: { in: userIds }, memberships: { some: { organizationId } } } });
    },

    async principalsIn(organizationId: string, userIds: string[], teamIds: string[]) {
      const [members, teams] = await Promise.all([
        userIds.length ? db.member.findMany({ where: { organizationId, userId: { in: userIds } }, select: { userId: true } }) : [],
        teamIds.length ? db.team.findMany({ where: { organizationId, id: { in: teamIds } }, select: { id: true } }) : [],
      ]);
      return { userIds: members.map((m) => m.userId), teamIds: teams.map((t) => t.id) };
    },

    async membership(organizationId: string, userId: string): Promise<{ role: DbRole | null; teamIds: string[] } | null> {
      return (await loadMembership({ organizationId, userId })) ?? null;
    },

    async membershipsOf(userId: string, organizationIds: string[]) {
      return db.member.findMany({ where: { userId, organizationId: { in: organizationIds } }, select: { organizationId: true, role: true } });
    },

    async listMembers(
      organizationId: string,
      filter: { role?: DbRole | null; search?: string; sort: 'joinedAt' | 'lastSeenAt'; order: 'asc' | 'desc' },
      page: Page,
    ): Promise<MemberRow[]> {
      const where: Prisma.MemberWhereInput = { organizationId };
      if (filter.role !== undefined) where.role = filter.role;
      if (filter.sort === 'lastSeenAt') where.lastSeenAt = { not: null };
      if (filter.search) {
        where.user = {
          OR: [{ displayName: { contains: filter.search, mode: 'insensitive' } }, { email: { contains: filter.search, mode: 'insensitive' } }],
        };
      }
      return db.member.findMany({
        where,
        include: { user: true },
        orderBy: [{ [filter.sort]: filter.order }, { userId: filter.order }],
        take: page.take,
        ...(page.after ? { cursor: { organizationId_userId: { organizationId, userId: page.after } }, skip: 1 } : {}),
      });
    },

    getMember(organizationId: string, userId: string): Promise<MemberRow | null> {
      return db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } }, include: { user: true } });
    },

    /** How many teams of the organization each user is in, in one query. */
    async teamCounts(organizationId: string, userIds: string[]): Promise<Map<string, number>> {
      if (userIds.length === 0) return new Map();
      const rows = await db.teamMember.groupBy({
        by: ['userId'],
        where: { userId: { in: userIds }, team: { organizationId } },
        _count: { _all: true },
      });
      return new Map(rows.map((r) => [r.userId, r._count._all]));
    },

    /**
     * Changes a member's role, or removes the member with their places in the organization's
     * teams, once `allow(current role, admins)` passes. The organization's row is locked first:
     * concurrent changes of its members run one after the other, each seeing the one before (two
     * admins demoting each other at once cannot both pass a count of two). Answers the role before
     * and the member after (none when removed).
     */
    async changeMember(organizationId: string, userId: string, next: { role: DbRole | null } | 'removed', allow: (current: DbRole | null, admins: number) => void) {
      return db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "Organization" WHERE id = ${organizationId} FOR UPDATE`;
        const where = { organizationId_userId: { organizationId, userId } };
        const found = await tx.member.findUnique({ where, select: { role: true } });
        if (!found) throw new NotFoundError('Member not found');
        const before = found.role;
        allow(before, await tx.member.count({ where: { organizationId, role: 'admin' } }));
        if (next !== 'removed') return { before, member: await tx.member.update({ where, data: { role: next.role }, include: { user: true } }) };
        await tx.teamMember.deleteMany({ where: { userId, team: { organizationId } } });
        await tx.member.delete({ where });
        return { before, member: undefined };
      });
    },

    updateMember(organizationId: string, userId: string, data: Prisma.MemberUpdateInput): Promise<MemberRow> {
      return db.member.update({ where: { organizationId_userId: { organizationId, userId } }, data, include: { user: true } });
    },

    addMember(organizationId: string, userId: string, role: DbRole | null) {
      return db.member.upsert({
        where: { organizationId_userId: { organizationId, userId } },
        create: { organizationId, userId, role },
        update: { role },
        include: { user: true },
      });
    },

    /** Which of these users are members of the organization. */
    async memberIds(organizationId: string, userIds: string[]): Promise<Set<string>> {
      const rows = await db.member.findMany({ where: { organizationId, userId: { in: userIds } }, select: { userId: true } });
      return new Set(rows.map((r) => r.userId));
    },
  };
}
