import type { OrgsServiceServer } from '@quire/proto/orgs';
import { COMMON, ORGANIZATION } from '@quire/proto/limits';
import { checkLength, checkUri, InvalidArgumentError, NotFoundError, pageOf, type Handlers } from '@quire/service-kit';
import { isRole, Role } from '@quire/policy';
import { newId } from '@quire/service-kit/ids';
import { authorize } from '../domain/policy.ts';
import { roleFromDb, roleToDb } from '../domain/roles.ts';
import { checkHostname, emailDomainOf, normalizeEmailDomains } from '../domain/validate.ts';
import { presentOrganization } from '../presenters.ts';
import type { Store } from '../store/index.ts';
import { callerOf, pageArgs, type Deps } from './deps.ts';

type H = Handlers<OrgsServiceServer>;

/** The organization and the caller's role in it; NOT_FOUND unless the caller is a member. */
export async function organizationOf(store: Store, organizationId: string, userId: string) {
  const row = await store.organizationForMember(organizationId, userId);
  if (!row) throw new NotFoundError('Organization not found');
  return { organization: row.organization, role: roleFromDb(row.role) };
}

/** The caller's role in the organization; NOT_FOUND unless a member. */
export async function roleIn(store: Store, organizationId: string, userId: string): Promise<Role> {
  const m = await store.membership(organizationId, userId);
  if (!m) throw new NotFoundError('Organization not found');
  return roleFromDb(m.role);
}

export function organizationHandlers({
  store,
}: Deps): Pick<
  H,
  'listOrganizations' | 'createOrganization' | 'getOrganization' | 'updateOrganization' | 'listOrganizationsForEmailDomain' | 'resolveOrganization' | 'batchGetOrganizations'
> {
  return {
    async resolveOrganization({ idOrHostname }) {
      const organizationId = idOrHostname ? await store.resolveOrganization(idOrHostname) : null;
      if (!organizationId) throw new NotFoundError(`Organization "${idOrHostname}" not found`);
      return { organizationId };
    },

    async batchGetOrganizations({ organizationIds }, ctx) {
      if (organizationIds.length > COMMON.batchIds.max) throw new InvalidArgumentError(`organizationIds: at most ${COMMON.batchIds.max}`);
      const rows = await store.organizationsByIds(organizationIds, ctx.userId);
      const byId = new Map(rows.map((o) => [o.id, o]));
      return {
        organizations: organizationIds.flatMap((id) => {
          const o = byId.get(id);
          return o ? [presentOrganization(o, o.members[0] ? roleFromDb(o.members[0].role) : Role.ROLE_UNSPECIFIED)] : [];
        }),
      };
    },

    async listOrganizations({ page }, ctx) {
      const userId = callerOf(ctx);
      const { limit, page: p } = pageArgs(page);
      const rows = await store.organizationsOfUser(userId, p);
      const { items, next } = pageOf(rows, limit, (r) => r.organizationId);
      return { items: items.map((r) => presentOrganization(r.organization, roleFromDb(r.role))), page: { next } };
    },

    async createOrganization({ title, emailDomains }, ctx) {
      const ownerId = callerOf(ctx);
      const org = await store.createOrganization({
        id: newId(),
        title: checkLength('title', title, ORGANIZATION.title),
        emailDomains: normalizeEmailDomains(emailDomains),
        ownerId,
      });
      return presentOrganization(org, Role.ROLE_ADMIN);
    },

    async getOrganization({ organizationId }, ctx) {
      const { organization, role } = await organizationOf(store, organizationId, callerOf(ctx));
      return presentOrganization(organization, role);
    },

    async updateOrganization(req, ctx) {
      const { role } = await organizationOf(store, req.organizationId, callerOf(ctx));
      authorize(role, 'admin');
      const data: Parameters<Store['updateOrganization']>[1] = {};
      if (req.title !== undefined) data.title = checkLength('title', req.title, ORGANIZATION.title);
      if (req.setEmailDomains) data.emailDomains = normalizeEmailDomains(req.emailDomains);
      if (req.hostname !== undefined) {
        data.hostname = checkHostname(req.hostname);
      }
      if (req.defaultRole !== undefined) {
        if (!isRole(req.defaultRole)) throw new InvalidArgumentError('defaultRole: not a role');
        data.defaultRole = roleToDb(req.defaultRole);
      }
      if (req.clearDefaultContent) data.defaultContentSite = null;
      else if (req.defaultContentSite !== undefined) data.defaultContentSite = checkLength('defaultContent.site', req.defaultContentSite, ORGANIZATION.defaultContentSite);
      if (req.clearLogo) data.logo = null;
      else if (req.logo !== undefined) data.logo = checkUri('logo', req.logo);
      if (req.sso !== undefined) data.sso = req.sso;
      if (req.ai !== undefined) data.ai = req.ai;
      if (req.inviteLinks !== undefined) data.inviteLinks = req.inviteLinks;
      const updated = await store.updateOrganization(req.organizationId, data);
      return presentOrganization(updated, role);
    },

    async listOrganizationsForEmailDomain({ emailDomain }, ctx) {
      const userId = callerOf(ctx);
      const [domain] = normalizeEmailDomains([emailDomain]);
      const user = await store.getUser(userId);
      const ownDomain = user ? emailDomainOf(user.email) === domain : false;
      const rows = await store.organizationsForEmailDomain(domain!, userId);
      // An organization's email domains are shown to its members and to people of that domain.
      const visible = rows.filter((o) => ownDomain || o.members.length > 0);
      return {
        organizations: visible.map((o) => presentOrganization(o, o.members[0] ? roleFromDb(o.members[0].role) : Role.ROLE_UNSPECIFIED)),
      };
    },
  };
}
