import { AlreadyExistsError, type Page } from '@quire/service-kit';
import { isUniqueViolation, openDatabaseStore, preparedStatements, type Database } from '@quire/service-kit/prisma';
import { PrismaClient, type Prisma, type Role as DbRole, type TeamRole } from '../generated/prisma/client.ts';

export type Db = Database<PrismaClient>;
export type { DbRole, TeamRole };
export type OrganizationRow = Prisma.OrganizationGetPayload<object>;
export type UserRow = Prisma.UserGetPayload<object>;
export type MemberRow = Prisma.MemberGetPayload<{ include: { user: true } }>;
export type TeamRow = Prisma.TeamGetPayload<{ include: { _count: { select: { members: true } } } }>;
export type LinkInviteRow = Prisma.LinkInviteGetPayload<object>;
export type SamlProviderRow = Prisma.SamlProviderGetPayload<{ include: { defaultTeam: { include: { _count: { select: { members: true } } } } } }>;
export type TranslationRow = Prisma.TranslationSettingsGetPayload<object>;

const teamInclude = { _count: { select: { members: true } } } as const;
const samlInclude = { defaultTeam: { include: teamInclude } } as const;


// The reads behind every authenticated call run as prepared statements; everything else goes through Prisma.
const hot = preparedStatements('orgs', {
  tokenUser: 'SELECT "userId" FROM "ApiToken" WHERE hash = $1',
  membership: `SELECT m.role::text AS role, ARRAY(
      SELECT tm."teamId" FROM "TeamMember" tm JOIN "Team" t ON t.id = tm."teamId"
      WHERE tm."userId" = m."userId" AND t."organizationId" = m."organizationId") AS "teamIds"
    FROM "Member" m WHERE m."organizationId" = $1 AND m."userId" = $2`,
  organizationForMember: `SELECT m.role::text AS "callerRole", o.id, o.title, o."createdAt", o."emailDomains", o.hostname,
      o.type, o."useCase", o."communityType", o."defaultRole"::text AS "defaultRole", o."defaultContentSite", o.logo,
      o.sso, o.ai, o."inviteLinks", o.plan
    FROM "Member" m JOIN "Organization" o ON o.id = m."organizationId" WHERE m."organizationId" = $1 AND m."userId" = $2`,
});

/** Opens the service's database (one pool for Prisma and plain SQL) and its store. */
export const openStore = (connectionString: string, poolSize?: number, log?: Parameters<typeof openDatabaseStore>[4]) =>
  openDatabaseStore(PrismaClient, createStore, connectionString, poolSize, log);

/**
 * All of the orgs service's queries. Finders take the caller where visibility depends on it, so
 * that what the caller may not see and what does not exist come back alike (null or []).
 */
export function createStore(database: Db) {
  const db = database.prisma;
  return {
    async userIdForTokenHash(hash: string): Promise<string | null> {
      const row = await hot<{ userId: string }>(database, 'tokenUser', [hash]);
      return row?.userId ?? null;
    },

    createToken(userId: string, id: string, hash: string, label?: string) {
      return db.apiToken.create({ data: { id, userId, hash, label: label ?? null } });
    },

    getUser(id: string) {
      return db.user.findUnique({ where: { id } });
    },

    findUserByEmail(email: string) {
      return db.user.findUnique({ where: { email } });
    },

    createUser(data: { id: string; email: string; displayName: string }) {
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

    async principalsIn(organizationId: string, userIds: string[], teamIds: string[]) {
      const [members, teams] = await Promise.all([
        userIds.length ? db.member.findMany({ where: { organizationId, userId: { in: userIds } }, select: { userId: true } }) : [],
        teamIds.length ? db.team.findMany({ where: { organizationId, id: { in: teamIds } }, select: { id: true } }) : [],
      ]);
      return { userIds: members.map((m) => m.userId), teamIds: teams.map((t) => t.id) };
    },

    async membership(organizationId: string, userId: string): Promise<{ role: DbRole | null; teamIds: string[] } | null> {
      return (await hot<{ role: DbRole | null; teamIds: string[] }>(database, 'membership', [organizationId, userId])) ?? null;
    },

    async membershipsOf(userId: string, organizationIds: string[]) {
      return db.member.findMany({ where: { userId, organizationId: { in: organizationIds } }, select: { organizationId: true, role: true } });
    },

    /** The organization with the caller's membership, in one query; null when not a member. */
    async organizationForMember(organizationId: string, userId: string): Promise<{ role: DbRole | null; organization: OrganizationRow } | null> {
      const row = await hot<OrganizationRow & { callerRole: DbRole | null }>(database, 'organizationForMember', [organizationId, userId]);
      if (!row) return null;
      const { callerRole, ...organization } = row;
      return { role: callerRole, organization };
    },

    async organizationIdForHostname(hostname: string): Promise<string | null> {
      return (await db.organization.findUnique({ where: { hostname }, select: { id: true } }))?.id ?? null;
    },

    async resolveOrganization(idOrHostname: string): Promise<string | null> {
      const row = await db.organization.findFirst({ where: { OR: [{ id: idOrHostname }, { hostname: idOrHostname }] }, select: { id: true } });
      return row?.id ?? null;
    },

    /** Organizations by id with the viewer's role where the viewer is a member. */
    organizationsByIds(ids: string[], viewerId: string | undefined) {
      return db.organization.findMany({
        where: { id: { in: ids } },
        include: { members: { where: { userId: viewerId ?? '' }, select: { role: true } } },
      });
    },

    async organizationsOfUser(userId: string, page: Page) {
      return db.member.findMany({
        where: { userId },
        select: { role: true, organization: true, organizationId: true },
        orderBy: [{ joinedAt: 'asc' }, { organizationId: 'asc' }],
        take: page.take,
        ...(page.after ? { cursor: { organizationId_userId: { organizationId: page.after, userId } }, skip: 1 } : {}),
      });
    },

    async createOrganization(data: { id: string; title: string; emailDomains: string[]; ownerId: string }) {
      return db.organization.create({
        data: {
          id: data.id,
          title: data.title,
          emailDomains: data.emailDomains,
          members: { create: { userId: data.ownerId, role: 'admin' } },
        },
      });
    },

    async updateOrganization(id: string, data: Prisma.OrganizationUpdateInput) {
      try {
        return await db.organization.update({ where: { id }, data });
      } catch (err) {
        // The unique index decides, so two organizations racing for one hostname cannot both win.
        if (isUniqueViolation(err)) {
          throw new AlreadyExistsError(`hostname: "${String(data.hostname)}" is already used by another organization`);
        }
        throw err;
      }
    },

    /** Organizations with the email domain, with the viewer's role where the viewer is a member. */
    async organizationsForEmailDomain(domain: string, viewerId: string) {
      return db.organization.findMany({
        where: { emailDomains: { has: domain } },
        include: { members: { where: { userId: viewerId }, select: { role: true } } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: 1000,
      });
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
          OR: [
            { displayName: { contains: filter.search, mode: 'insensitive' } },
            { email: { contains: filter.search, mode: 'insensitive' } },
          ],
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

    countAdmins(organizationId: string) {
      return db.member.count({ where: { organizationId, role: 'admin' } });
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

    /** Removes the membership and the user's places in the organization's teams, together. */
    async removeMember(organizationId: string, userId: string) {
      await db.$transaction([
        db.teamMember.deleteMany({ where: { userId, team: { organizationId } } }),
        db.member.delete({ where: { organizationId_userId: { organizationId, userId } } }),
      ]);
    },

    /** Which of these users are members of the organization. */
    async memberIds(organizationId: string, userIds: string[]): Promise<Set<string>> {
      const rows = await db.member.findMany({ where: { organizationId, userId: { in: userIds } }, select: { userId: true } });
      return new Set(rows.map((r) => r.userId));
    },

    async listTeams(organizationId: string, filter: { title?: string; ownerId?: string }, page: Page): Promise<TeamRow[]> {
      const where: Prisma.TeamWhereInput = { organizationId };
      if (filter.title) where.title = { contains: filter.title, mode: 'insensitive' };
      if (filter.ownerId) where.members = { some: { userId: filter.ownerId, role: 'owner' } };
      return db.team.findMany({
        where,
        include: teamInclude,
        orderBy: [{ title: 'asc' }, { id: 'asc' }],
        take: page.take,
        ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
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

    /**
     * Everyone invited is a member afterwards, all or none: existing users join, unknown emails
     * get an account. Existing members keep their role. Answers the user ids and how many joined.
     */
    async invite(organizationId: string, invitees: { email: string; displayName: string; id: string; role: DbRole | null }[], sso: boolean) {
      return db.$transaction(async (tx) => {
        const users: string[] = [];
        let joined = 0;
        for (const i of invitees) {
          const user = await tx.user.upsert({ where: { email: i.email }, create: { id: i.id, email: i.email, displayName: i.displayName }, update: {} });
          const existing = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId: user.id } } });
          if (!existing) {
            await tx.member.create({ data: { organizationId, userId: user.id, role: i.role, sso } });
            joined++;
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
        take: page.take,
        ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
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

    listSamlProviders(organizationId: string, page: Page): Promise<SamlProviderRow[]> {
      return db.samlProvider.findMany({
        where: { organizationId },
        include: samlInclude,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: page.take,
        ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
      });
    },

    getSamlProvider(organizationId: string, id: string): Promise<SamlProviderRow | null> {
      return db.samlProvider.findFirst({ where: { id, organizationId }, include: samlInclude });
    },

    createSamlProvider(data: Prisma.SamlProviderUncheckedCreateInput): Promise<SamlProviderRow> {
      return db.samlProvider.create({ data, include: samlInclude });
    },

    updateSamlProvider(id: string, data: Prisma.SamlProviderUncheckedUpdateInput): Promise<SamlProviderRow> {
      return db.samlProvider.update({ where: { id }, data, include: samlInclude });
    },

    async deleteSamlProvider(organizationId: string, id: string): Promise<boolean> {
      return (await db.samlProvider.deleteMany({ where: { id, organizationId } })).count > 0;
    },

    async organizationExists(id: string): Promise<boolean> {
      return (await db.organization.count({ where: { id } })) > 0;
    },

    listTranslations(organizationId: string, page: Page): Promise<TranslationRow[]> {
      return db.translationSettings.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: page.take,
        ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
      });
    },

    getTranslation(organizationId: string, id: string): Promise<TranslationRow | null> {
      return db.translationSettings.findFirst({ where: { id, organizationId } });
    },

    createTranslation(data: { id: string; organizationId: string; title: string; languages: string[] }): Promise<TranslationRow> {
      return db.translationSettings.create({ data });
    },

    updateTranslation(id: string, data: { title: string; languages?: string[] }): Promise<TranslationRow> {
      return db.translationSettings.update({ where: { id }, data });
    },

    async deleteTranslation(organizationId: string, id: string): Promise<boolean> {
      return (await db.translationSettings.deleteMany({ where: { id, organizationId } })).count > 0;
    },

    countOrganizations() {
      return db.organization.count();
    },
  };
}

export type Store = ReturnType<typeof createStore>;
