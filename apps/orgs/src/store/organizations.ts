import { AlreadyExistsError, type Page } from '@quire/service-kit';
import { isUniqueViolation, preparedStatements } from '@quire/service-kit/prisma';
import type { Prisma, Role as DbRole } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';
import { MEMBERS_OF_KEYS, memberKeys, type MemberKey } from './members.ts';

export type OrganizationRow = Prisma.OrganizationGetPayload<object>;

const hot = preparedStatements('orgs', {
  organizationsForMembers: `SELECT k.key, m.role::text AS "callerRole", o.id, o.title, o."createdAt", o."emailDomains", o.hostname,
      o.type, o."useCase", o."communityType", o."defaultRole"::text AS "defaultRole", o."defaultContentSite", o.logo,
      o.sso, o.ai, o."inviteLinks", o.plan
    FROM ${MEMBERS_OF_KEYS} JOIN "Organization" o ON o.id = m."organizationId"`,
});

/** Organizations, found by id, hostname, member or email domain. */
export function organizationStore(database: Db) {
  const db = database.prisma;
  const loadOrganizationForMember = hot.loader<MemberKey, OrganizationRow & { callerRole: DbRole | null }>(database, 'organizationsForMembers', memberKeys);
  return {
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

    async organizationExists(id: string): Promise<boolean> {
      return (await db.organization.count({ where: { id } })) > 0;
    },

    countOrganizations() {
      return db.organization.count();
    },
  };
}
