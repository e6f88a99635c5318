import type { OrgsServiceServer } from '@quire/proto/orgs';
import { NotFoundError, pageOf, type Handlers } from '@quire/service-kit';
import { Role, roleOr } from '@quire/policy';
import { newId } from '@quire/service-kit/ids';
import { seal } from '@quire/service-kit/sealed';
import { authorize } from '../domain/policy.ts';
import { roleToDb } from '../domain/roles.ts';
import { checkClientId, checkClientSecret, checkIssuer, checkOidcLabel, clientSecretContext } from '../domain/sso.ts';
import { presentOidcProvider } from '../presenters.ts';
import { callerOf, pageArgs, type Deps } from './deps.ts';
import { roleIn } from './organizations.ts';
import { checkTeam, ssoSettingsAudit, updatedDefaults } from './sso.ts';

type H = Handlers<OrgsServiceServer>;

export function oidcHandlers({
  store,
  secretsKey,
  events,
}: Deps): Pick<H, 'listOidcProviders' | 'createOidcProvider' | 'getOidcProvider' | 'updateOidcProvider' | 'deleteOidcProvider'> {
  const admin = async (organizationId: string, ctx: Parameters<H['getOidcProvider']>[1]) => authorize(await roleIn(store, organizationId, callerOf(ctx)), 'admin');
  const providerOf = async (organizationId: string, id: string) => {
    const provider = await store.getOidcProvider(organizationId, id);
    if (!provider) throw new NotFoundError('OIDC provider not found');
    return provider;
  };
  const changed = ssoSettingsAudit(events, 'oidc_provider');
  const sealSecret = (id: string, secret: string) => new Uint8Array(seal(checkClientSecret(secret), clientSecretContext(id), secretsKey));

  return {
    async listOidcProviders({ organizationId, page }, ctx) {
      await admin(organizationId, ctx);
      const { limit, page: p } = pageArgs(page);
      const { items, next } = pageOf(await store.listOidcProviders(organizationId, p), limit, (x) => x.id);
      return { items: items.map(presentOidcProvider), page: { next } };
    },

    async createOidcProvider(req, ctx) {
      await admin(req.organizationId, ctx);
      const id = newId();
      const role = roleOr(req.defaultRole, Role.ROLE_READ);
      const provider = await store.createOidcProvider({
        id,
        organizationId: req.organizationId,
        label: checkOidcLabel(req.label),
        issuer: checkIssuer(req.issuer),
        clientId: checkClientId(req.clientId),
        clientSecret: sealSecret(id, req.clientSecret),
        defaultTeamId: req.defaultTeam === undefined ? null : await checkTeam(store, req.organizationId, req.defaultTeam),
        defaultRole: roleToDb(role),
      });
      await changed(ctx, req.organizationId, id, 'created', req);
      return presentOidcProvider(provider);
    },

    async getOidcProvider({ organizationId, oidcProviderId }, ctx) {
      await admin(organizationId, ctx);
      return presentOidcProvider(await providerOf(organizationId, oidcProviderId));
    },

    async updateOidcProvider(req, ctx) {
      await admin(req.organizationId, ctx);
      await providerOf(req.organizationId, req.oidcProviderId);
      const data: Parameters<typeof store.updateOidcProvider>[1] = {};
      if (req.label !== undefined) data.label = checkOidcLabel(req.label);
      if (req.issuer !== undefined) data.issuer = checkIssuer(req.issuer);
      if (req.clientId !== undefined) data.clientId = checkClientId(req.clientId);
      if (req.clientSecret !== undefined) data.clientSecret = sealSecret(req.oidcProviderId, req.clientSecret);
      Object.assign(data, await updatedDefaults(store, req));
      const provider = await store.updateOidcProvider(req.oidcProviderId, data);
      await changed(ctx, req.organizationId, req.oidcProviderId, 'updated', data);
      return presentOidcProvider(provider);
    },

    async deleteOidcProvider({ organizationId, oidcProviderId }, ctx) {
      await admin(organizationId, ctx);
      if (!(await store.deleteOidcProvider(organizationId, oidcProviderId))) throw new NotFoundError('OIDC provider not found');
      await changed(ctx, organizationId, oidcProviderId, 'deleted', {});
      return {};
    },
  };
}
