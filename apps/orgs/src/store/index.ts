import { AlreadyExistsError, NotFoundError, type Page } from '@quire/service-kit';
import { isUniqueViolation, openDatabaseStore, preparedStatements, type Database } from '@quire/service-kit/prisma';
import { PrismaClient, type Prisma, type Role as DbRole, type TeamRole } from '../generated/prisma/client.ts';
import type { AuditRow } from '../domain/audit.ts';
import type { DbTokenScope } from '../domain/credentials.ts';

export type Db = Database<PrismaClient>;
export type { DbRole, TeamRole };
export type { DbTokenScope };
export type ApiTokenRow = Prisma.ApiTokenGetPayload<object>;
export type AuditEntryRow = Prisma.AuditEntryGetPayload<object>;
export type OrganizationRow = Prisma.OrganizationGetPayload<object>;
export type UserRow = Prisma.UserGetPayload<object>;
export type MemberRow = Prisma.MemberGetPayload<{ include: { user: true } }>;
export type TeamRow = Prisma.TeamGetPayload<{ include: { _count: { select: { members: true } } } }>;
export type LinkInviteRow = Prisma.LinkInviteGetPayload<object>;
export type SamlProviderRow = Prisma.SamlProviderGetPayload<{ include: { defaultTeam: { include: { _count: { select: { members: true } } } } } }>;
export type OidcProviderRow = Prisma.OidcProviderGetPayload<{ include: { defaultTeam: { include: { _count: { select: { members: true } } } } } }>;
export type TranslationRow = Prisma.TranslationSettingsGetPayload<object>;

const teamInclude = { _count: { select: { members: true } } } as const;
const samlInclude = { defaultTeam: { include: teamInclude } } as const;
const oidcInclude = samlInclude;

// The members of the pairs ($1[i], $2[i]), `k.key` the pair's position.
const MEMBERS_OF_KEYS = `unnest($1::text[], $2::text[]) WITH ORDINALITY AS k("organizationId", "userId", key)
      JOIN "Member" m ON m."organizationId" = k."organizationId" AND m."userId" = k."userId"`;

// The reads behind every authenticated call run as prepared statements; everything else goes through Prisma.
const hot = preparedStatements('orgs', {
  // A live token, its use noted at most once a minute (one write per minute, not per call).
  tokenAuth: `WITH t AS (
      SELECT id, "userId", scope::text AS scope, "expiresAt", "lastUsedAt" FROM "ApiToken"
      WHERE hash = $1 AND ("expiresAt" IS NULL OR "expiresAt" > now())),
    touched AS (UPDATE "ApiToken" SET "lastUsedAt" = now()
      WHERE id IN (SELECT id FROM t WHERE "lastUsedAt" IS NULL OR "lastUsedAt" < now() - interval '1 minute'))
    SELECT "userId", scope, "expiresAt" FROM t`,
  // A live session (within its absolute and idle lifetimes, $2 ms); its idle clock restarts when
  // a tenth of the idle lifetime has passed since it last did, so a busy session writes rarely.
  sessionAuth: `WITH s AS (
      SELECT id, "userId", "expiresAt", "lastSeenAt" FROM "Session"
      WHERE hash = $1 AND "expiresAt" > now() AND "lastSeenAt" > now() - $2 * interval '1 millisecond'),
    touched AS (UPDATE "Session" SET "lastSeenAt" = now()
      WHERE id IN (SELECT id FROM s WHERE "lastSeenAt" < now() - $2 * interval '100 microseconds')
      RETURNING "lastSeenAt")
    SELECT s."userId", s."expiresAt", COALESCE((SELECT "lastSeenAt" FROM touched), s."lastSeenAt") AS "lastSeenAt" FROM s`,
  // Memberships of (organization, user) pairs, many calls' at once (`hot.loader`).
  memberships: `SELECT k.key, m.role::text AS role, ARRAY(
      SELECT tm."teamId" FROM "TeamMember" tm JOIN "Team" t ON t.id = tm."teamId"
      WHERE tm."userId" = m."userId" AND t."organizationId" = m."organizationId") AS "teamIds"
    FROM ${MEMBERS_OF_KEYS}`,
  organizationsForMembers: `SELECT k.key, m.role::text AS "callerRole", o.id, o.title, o."createdAt", o."emailDomains", o.hostname,
      o.type, o."useCase", o."communityType", o."defaultRole"::text AS "defaultRole", o."defaultContentSite", o.logo,
      o.sso, o.ai, o."inviteLinks", o.plan
    FROM ${MEMBERS_OF_KEYS} JOIN "Organization" o ON o.id = m."organizationId"`,
});
type MemberKey = { organizationId: string; userId: string };
const memberKeys = (keys: readonly MemberKey[]) => [keys.map((k) => k.organizationId), keys.map((k) => k.userId)];

/** Opens the service's database (one pool for Prisma and plain SQL) and its store. */
export const openStore = (connectionString: string, poolSize?: number, log?: Parameters<typeof openDatabaseStore>[4]) =>
  openDatabaseStore(PrismaClient, createStore, connectionString, poolSize, log);

/**
 * All of the orgs service's queries. Finders take the caller where visibility depends on it, so
 * that what the caller may not see and what does not exist come back alike (null or []).
 */
export function createStore(database: Db) {
  const db = database.prisma;
  const loadMembership = hot.loader<MemberKey, { role: DbRole | null; teamIds: string[] }>(database, 'memberships', memberKeys);
  const loadOrganizationForMember = hot.loader<MemberKey, OrganizationRow & { callerRole: DbRole | null }>(database, 'organizationsForMembers', memberKeys);
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
        take: page.take,
        ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
      });
    },

    /** Deletes the user's token; its hash, or null when the user has no such token. */
    async revokeToken(userId: string, id: string): Promise<string | null> {
      const rows = await db.apiToken.findMany({ where: { id, userId }, select: { hash: true } });
      if (rows.length === 0) return null;
      await db.apiToken.deleteMany({ where: { id, userId } });
      return rows[0]!.hash;
    },

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

    setPasswordHash(userId: string, passwordHash: string) {
      return db.user.update({ where: { id: userId }, data: { passwordHash } });
    },

    organizationIdsOf(userId: string): Promise<string[]> {
      return db.member.findMany({ where: { userId }, select: { organizationId: true } }).then((rows) => rows.map((r) => r.organizationId));
    },

    /** Appends entries; an entry already written for the same event and organization is skipped. */
    async appendAudit(rows: AuditRow[]): Promise<void> {
      await db.auditEntry.createMany({ data: rows.map((r) => ({ ...r, details: r.details as Prisma.InputJsonObject })), skipDuplicates: true });
    },

    /** The organization's audit log, newest first. */
    listAudit(organizationId: string, filter: { actor?: string; action?: string; from?: Date; to?: Date }, page: Page) {
      const createdAt = filter.from || filter.to ? { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } : undefined;
      return db.auditEntry.findMany({
        where: { organizationId, actor: filter.actor, action: filter.action, createdAt },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: page.take,
        ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
      });
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

    /** The organization with the caller's membership, in one query; null when not a member. */
    async organizationForMember(organizationId: string, userId: string): Promise<{ role: DbRole | null; organization: OrganizationRow } | null> {
      const row = await loadOrganizationForMember({ organizationId, userId });
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

    listOidcProviders(organizationId: string, page: Page): Promise<OidcProviderRow[]> {
      return db.oidcProvider.findMany({
        where: { organizationId },
        include: oidcInclude,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: page.take,
        ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
      });
    },

    getOidcProvider(organizationId: string, id: string): Promise<OidcProviderRow | null> {
      return db.oidcProvider.findFirst({ where: { id, organizationId }, include: oidcInclude });
    },

    /** A provider by id alone, for sign-in (which has no organization in the path). */
    findOidcProvider(id: string): Promise<OidcProviderRow | null> {
      return db.oidcProvider.findUnique({ where: { id }, include: oidcInclude });
    },

    findSamlProvider(id: string): Promise<SamlProviderRow | null> {
      return db.samlProvider.findUnique({ where: { id }, include: samlInclude });
    },

    createOidcProvider(data: Prisma.OidcProviderUncheckedCreateInput): Promise<OidcProviderRow> {
      return db.oidcProvider.create({ data, include: oidcInclude });
    },

    updateOidcProvider(id: string, data: Prisma.OidcProviderUncheckedUpdateInput): Promise<OidcProviderRow> {
      return db.oidcProvider.update({ where: { id }, data, include: oidcInclude });
    },

    async deleteOidcProvider(organizationId: string, id: string): Promise<boolean> {
      return (await db.oidcProvider.deleteMany({ where: { id, organizationId } })).count > 0;
    },

    /** The SSO providers of an organization, or of the organizations with an email domain: what a sign-in page offers. */
    async signInProviders(filter: { organizationId: string } | { emailDomain: string }) {
      const where = 'organizationId' in filter ? { organizationId: filter.organizationId } : { organization: { emailDomains: { has: filter.emailDomain } } };
      const order = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
      const [saml, oidc] = await Promise.all([
        db.samlProvider.findMany({ where, select: { id: true, label: true, ssoUrl: true, entityId: true, certificate: true }, orderBy: order, take: 100 }),
        db.oidcProvider.findMany({ where, select: { id: true, label: true }, orderBy: order, take: 100 }),
      ]);
      return { saml, oidc };
    },

    /**
     * Keeps a single-use key until it expires; false when it is already kept (a replay). Expired
     * keys are dropped on the way, so the table holds only live ones.
     */
    async claimReplayKey(key: string, value: string, expiresAt: Date): Promise<boolean> {
      await db.ssoReplayKey.deleteMany({ where: { expiresAt: { lt: new Date() } } });
      const rows = await db.$executeRaw`INSERT INTO "SsoReplayKey" (key, value, "expiresAt") VALUES (${key}, ${value}, ${expiresAt}) ON CONFLICT (key) DO NOTHING`;
      return rows === 1;
    },

    async replayKeyValue(key: string): Promise<string | null> {
      const row = await db.ssoReplayKey.findFirst({ where: { key, expiresAt: { gt: new Date() } } });
      return row?.value ?? null;
    },

    async dropReplayKey(key: string): Promise<string | null> {
      const rows = await db.ssoReplayKey.deleteMany({ where: { key, expiresAt: { gt: new Date() } } });
      return rows.count > 0 ? key : null;
    },

    /**
     * The account of a verified SSO email, made on first sign-in, and its membership in the
     * organization, made with the provider's default role and team (one transaction). `allow`
     * decides with the organization's email domains and the existing membership before anything
     * is written.
     */
    async signInWithSso(
      organizationId: string,
      person: { id: string; email: string; displayName: string },
      defaults: { role: DbRole | null; teamId: string | null },
      allow: (emailDomains: string[], member: { sso: boolean } | null) => void,
    ) {
      return db.$transaction(async (tx) => {
        const organization = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { emailDomains: true } });
        const existing = await tx.user.findUnique({ where: { email: person.email } });
        const member = existing ? await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId: existing.id } } }) : null;
        allow(organization.emailDomains, member);
        const user = existing ?? (await tx.user.create({ data: { id: person.id, email: person.email, displayName: person.displayName } }));
        if (!member) {
          await tx.member.create({ data: { organizationId, userId: user.id, role: defaults.role, sso: true } });
          if (defaults.teamId) await tx.teamMember.create({ data: { teamId: defaults.teamId, userId: user.id } });
        }
        return { userId: user.id, created: !existing, joined: !member };
      });
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
