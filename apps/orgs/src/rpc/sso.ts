import type { OrgsServiceServer } from '@quire/proto/orgs';
import { listPage, InvalidArgumentError, NotFoundError, type Handlers } from '@quire/service-kit';
import { isRole, Role, roleOr } from '@quire/policy';
import { newId } from '@quire/service-kit/ids';
import { authorize } from '../domain/policy.ts';
import { roleToDb } from '../domain/roles.ts';
import { checkCertificate, checkEntityId, checkLabel, checkSsoUrl } from '../domain/saml.ts';
import { presentSamlProvider } from '../presenters.ts';
import type { Store } from '../store/index.ts';
import { callerOf, pageArgs, type Deps } from './deps.ts';
import { roleIn } from './organizations.ts';
import { signInOffers } from './sso-signin.ts';

type H = Handlers<OrgsServiceServer>;

/** The default team must be a team of this organization. */
export async function checkTeam(store: Store, organizationId: string, teamId: string): Promise<string> {
  if (!(await store.getTeam(organizationId, teamId))) throw new InvalidArgumentError(`defaultTeam: "${teamId}" is not a team of the organization`);
  return teamId;
}

/** The defaults an update of a provider gives for whom it signs in: a team of the organization, a role. */
export async function updatedDefaults(store: Store, req: { organizationId: string; defaultTeam?: string; defaultRole?: Role }) {
  const data: { defaultTeamId?: string; defaultRole?: ReturnType<typeof roleToDb> } = {};
  if (req.defaultTeam !== undefined) data.defaultTeamId = await checkTeam(store, req.organizationId, req.defaultTeam);
  if (req.defaultRole !== undefined) {
    if (!isRole(req.defaultRole)) throw new InvalidArgumentError('defaultRole: not a role');
    data.defaultRole = roleToDb(req.defaultRole);
  }
  return data;
}

/**
 * Records a change of an SSO provider's settings in the audit log: which fields were given,
 * never their values (a client secret is one).
 */
export function ssoSettingsAudit(events: Deps['events'], entity: 'saml_provider' | 'oidc_provider') {
  return (ctx: Parameters<H['getSamlProvider']>[1], organizationId: string, id: string, verb: 'created' | 'updated' | 'deleted', given: object) => {
    const fields = Object.entries(given)
      .filter(([k, v]) => v !== undefined && k !== 'organizationId')
      .map(([k]) => k);
    return events.emit(ctx, { entity, verb, organizationId, target: { type: entity, id }, details: { fields } });
  };
}

type Ctx = Parameters<H['getSamlProvider']>[1];

/**
 * What both kinds of provider share: only admins see or manage them, one that is not there is
 * `notFound`, and every change is audited. List, get and delete are the same for both.
 */
export function providerKind<Row extends { id: string }, M>(
  { store, events }: Pick<Deps, 'store' | 'events'>,
  kind: {
    entity: 'saml_provider' | 'oidc_provider';
    notFound: string;
    list: (organizationId: string, page: ReturnType<typeof pageArgs>['page']) => Promise<Row[]>;
    get: (organizationId: string, id: string) => Promise<Row | null>;
    remove: (organizationId: string, id: string) => Promise<boolean>;
    present: (row: Row) => M;
  },
) {
  const admin = async (organizationId: string, ctx: Ctx) => authorize(await roleIn(store, organizationId, callerOf(ctx)), 'admin');
  const changed = ssoSettingsAudit(events, kind.entity);
  const providerOf = async (organizationId: string, id: string) => {
    const provider = await kind.get(organizationId, id);
    if (!provider) throw new NotFoundError(kind.notFound);
    return provider;
  };
  return {
    admin,
    changed,
    providerOf,
    async list(organizationId: string, page: Parameters<typeof pageArgs>[0], ctx: Ctx) {
      await admin(organizationId, ctx);
      return listPage(
        page,
        (p) => kind.list(organizationId, p),
        (items) => items.map(kind.present),
      );
    },
    async get(organizationId: string, id: string, ctx: Ctx) {
      await admin(organizationId, ctx);
      return kind.present(await providerOf(organizationId, id));
    },
    async delete(organizationId: string, id: string, ctx: Ctx) {
      await admin(organizationId, ctx);
      if (!(await kind.remove(organizationId, id))) throw new NotFoundError(kind.notFound);
      await changed(ctx, organizationId, id, 'deleted', {});
      return {};
    },
  };
}

export function ssoHandlers(deps: Deps): Pick<H, 'listSamlProviders' | 'createSamlProvider' | 'getSamlProvider' | 'updateSamlProvider' | 'deleteSamlProvider' | 'listSsoLogins'> {
  const { store } = deps;
  // Only admins see or manage providers, so the default team is always shown as theirs to admin.
  const present = (p: Parameters<typeof presentSamlProvider>[0]) => presentSamlProvider(p, true);
  const saml = providerKind(deps, {
    entity: 'saml_provider',
    notFound: 'SAML provider not found',
    list: store.listSamlProviders,
    get: store.getSamlProvider,
    remove: store.deleteSamlProvider,
    present,
  });
  const { admin, changed } = saml;

  return {
    listSamlProviders: ({ organizationId, page }, ctx) => saml.list(organizationId, page, ctx),

    async createSamlProvider(req, ctx) {
      await admin(req.organizationId, ctx);
      const role = roleOr(req.defaultRole, Role.ROLE_READ);
      const provider = await store.createSamlProvider({
        id: newId(),
        organizationId: req.organizationId,
        label: checkLabel(req.label),
        entityId: req.entityId === undefined ? null : checkEntityId(req.entityId),
        certificate: req.certificate === undefined ? null : checkCertificate(req.certificate),
        ssoUrl: req.ssoUrl === undefined ? null : checkSsoUrl(req.ssoUrl),
        defaultTeamId: req.defaultTeam === undefined ? null : await checkTeam(store, req.organizationId, req.defaultTeam),
        defaultRole: roleToDb(role),
      });
      await changed(ctx, req.organizationId, provider.id, 'created', req);
      return present(provider);
    },

    getSamlProvider: ({ organizationId, samlProviderId }, ctx) => saml.get(organizationId, samlProviderId, ctx),

    async updateSamlProvider(req, ctx) {
      await admin(req.organizationId, ctx);
      await saml.providerOf(req.organizationId, req.samlProviderId);
      const data: Parameters<Store['updateSamlProvider']>[1] = {};
      if (req.label !== undefined) data.label = checkLabel(req.label);
      if (req.entityId !== undefined) data.entityId = checkEntityId(req.entityId);
      if (req.certificate !== undefined) data.certificate = checkCertificate(req.certificate);
      if (req.ssoUrl !== undefined) data.ssoUrl = checkSsoUrl(req.ssoUrl);
      Object.assign(data, await updatedDefaults(store, req));
      const provider = await store.updateSamlProvider(req.samlProviderId, data);
      await changed(ctx, req.organizationId, req.samlProviderId, 'updated', data);
      return present(provider);
    },

    deleteSamlProvider: ({ organizationId, samlProviderId }, ctx) => saml.delete(organizationId, samlProviderId, ctx),

    async listSsoLogins({ organizationId }) {
      if (!(await store.organizationExists(organizationId))) throw new NotFoundError('Organization not found');
      return { items: signInOffers(await store.signInProviders({ organizationId })) };
    },
  };
}
