import { organizationPage, type Page } from '@quire/service-kit';
import type { Prisma, Role as DbRole } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';
import { teamInclude } from './teams.ts';

export type SamlProviderRow = Prisma.SamlProviderGetPayload<{ include: { defaultTeam: { include: { _count: { select: { members: true } } } } } }>;
export type OidcProviderRow = Prisma.OidcProviderGetPayload<{ include: { defaultTeam: { include: { _count: { select: { members: true } } } } } }>;

const samlInclude = { defaultTeam: { include: teamInclude } } as const;
const oidcInclude = samlInclude;

/** SAML and OIDC providers, the single-use keys of their sign-ins, and the accounts they sign in. */
export function ssoStore(database: Db) {
  const db = database.prisma;
  return {
    listSamlProviders(organizationId: string, page: Page): Promise<SamlProviderRow[]> {
      return db.samlProvider.findMany({ ...organizationPage(organizationId, page), include: samlInclude });
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
      return db.oidcProvider.findMany({ ...organizationPage(organizationId, page), include: oidcInclude });
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
  };
}
