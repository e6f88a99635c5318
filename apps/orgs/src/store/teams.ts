import { rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma, TeamRole } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';
import type { MemberRow } from './members.ts';

export type { TeamRole };
export type TeamRow = Prisma.TeamGetPayload<{ include: { _count: { select: { members: true } } } }>;

export const teamInclude = { _count: { select: { members: true } } } as const;

/** Teams and their members. */
export function teamStore(database: Db) {
  const db = database.prisma;
  return {
    async listTeams(organizationId: string, filter: { title?: string; ownerId?: string }, page: Page): Promise<TeamRow[]> {
      const where: Prisma.TeamWhereInput = { organizationId };
      if (filter.title) where.title = { contains: filter.title, mode: 'insensitive' };
      if (filter.ownerId) where.members = { some: { userId: filter.ownerId, role: 'owner' } };
      return db.team.findMany({
        where,
        include: teamInclude,
        orderBy: [{ title: 'asc' }, { id: 'asc' }],
        ...rowsAfter(page),
      });
    },

    /** Teams the caller owns among these, for `permissions.admin`. */
    async ownedTeamIds(userId: string, teamIds: string[]): Promise<Set<string>> {
      if (teamIds.length === 0) return new Set();
      const rows = await db.teamMember.findMany({ where: { userId, teamId: { in: teamIds }, role: 'owner' }, select: { teamId: true } });
      return new Set(rows.map((r) => r.teamId));
    },

    async listMemberTeams(organizationId: string, userId: string, filter: { title?: string }, page: Page) {
      const teamWhere: Prisma.TeamWhereInput = { organizationId };
      if (filter.title) teamWhere.title = { contains: filter.title, mode: 'insensitive' };
      return db.teamMember.findMany({
        where: { userId, team: teamWhere },
        include: { team: { include: teamInclude } },
        orderBy: [{ team: { title: 'asc' } }, { teamId: 'asc' }],
        take: page.take,
        ...(page.after ? { cursor: { teamId_userId: { teamId: page.after, userId } }, skip: 1 } : {}),
      });
    },

    getTeam(organizationId: string, teamId: string): Promise<TeamRow | null> {
      return db.team.findFirst({ where: { id: teamId, organizationId }, include: teamInclude });
    },

    createTeam(data: { id: string; organizationId: string; title: string; members: { userId: string; role: TeamRole }[] }): Promise<TeamRow> {
      return db.team.create({
        data: { id: data.id, organizationId: data.organizationId, title: data.title, members: { create: data.members } },
        include: teamInclude,
      });
    },

    updateTeam(teamId: string, title: string): Promise<TeamRow> {
      return db.team.update({ where: { id: teamId }, data: { title }, include: teamInclude });
    },

    deleteTeam(teamId: string) {
      return db.team.delete({ where: { id: teamId } });
    },

    /** Applies removals, then additions and role changes, in one transaction. */
    async changeTeamMembers(teamId: string, remove: string[], upserts: { userId: string; role?: TeamRole }[]) {
      await db.$transaction([
        db.teamMember.deleteMany({ where: { teamId, userId: { in: remove } } }),
        ...upserts.map((u) =>
          db.teamMember.upsert({
            where: { teamId_userId: { teamId, userId: u.userId } },
            create: { teamId, userId: u.userId, role: u.role ?? 'member' },
            update: u.role ? { role: u.role } : {},
          }),
        ),
      ]);
    },

    /** A team's members with their organization membership, in one query. */
    async listTeamMembers(organizationId: string, teamId: string, page: Page) {
      const rows = await db.teamMember.findMany({
        where: { teamId },
        include: { user: { include: { memberships: { where: { organizationId } } } } },
        orderBy: [{ joinedAt: 'asc' }, { userId: 'asc' }],
        take: page.take,
        ...(page.after ? { cursor: { teamId_userId: { teamId, userId: page.after } }, skip: 1 } : {}),
      });
      return rows.flatMap((r) => {
        const { memberships, ...user } = r.user;
        const membership = memberships[0];
        return membership ? [{ role: r.role, member: { ...membership, user } as MemberRow }] : [];
      });
    },
  };
}
