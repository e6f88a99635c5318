import type { OrgsServiceServer } from '@quire/proto/orgs';
import { type Handlers } from '@quire/service-kit';
import { Role, roleOr } from '@quire/policy';
import { newId } from '@quire/service-kit/ids';
import { seal } from '@quire/service-kit/sealed';
import { roleToDb } from '../domain/roles.ts';
import { checkClientId, checkClientSecret, checkIssuer, checkOidcLabel, clientSecretContext } from '../domain/sso.ts';
import { presentOidcProvider } from '../presenters.ts';
import { type Deps } from './deps.ts';
import { checkTeam, providerKind, updatedDefaults } from './sso.ts';

type H = Handlers<OrgsServiceServer>;

export function oidcHandlers(deps: Deps): Pick<H, 'listOidcProviders' | 'createOidcProvider' | 'getOidcProvider' | 'updateOidcProvider' | 'deleteOidcProvider'> {
  const { store, secretsKey } = deps;
  const oidc = providerKind(deps, {
    entity: 'oidc_provider',
    notFound: 'OIDC provider not found',
    list: store.listOidcProviders,
    get: store.getOidcProvider,
    remove: store.deleteOidcProvider,
    present: presentOidcProvider,
  });
  const { admin, changed } = oidc;
  const sealSecret = (id: string, secret: string) => new Uint8Array(seal(checkClientSecret(secret), clientSecretContext(id), secretsKey));

  return {
    listOidcProviders: ({ organizationId, page }, ctx) => oidc.list(organizationId, page, ctx),

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

    getOidcProvider: ({ organizationId, oidcProviderId }, ctx) => oidc.get(organizationId, oidcProviderId, ctx),

    async updateOidcProvider(req, ctx) {
      await admin(req.organizationId, ctx);
      await oidc.providerOf(req.organizationId, req.oidcProviderId);
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

    deleteOidcProvider: ({ organizationId, oidcProviderId }, ctx) => oidc.delete(organizationId, oidcProviderId, ctx),
  };
}
