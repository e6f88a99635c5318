import type { IntegrationsServiceServer } from '@quire/proto/integrations';
import { AlreadyExistsError, NotFoundError, pageOf, type CallContext, type Handlers } from '@quire/service-kit';
import { allow, Role } from '@quire/policy';
import { checkListFilter, checkManifest, checkName, checkSecrets } from '../domain/manifest.ts';
import { authorizeOwnerAdmin, authorizePublisher } from '../domain/policy.ts';
import { sealSecrets } from '../domain/secrets.ts';
import { presentIntegration } from '../presenters.ts';
import { callerOf, pageArgs, resolveOrganization, rolesIn, type Deps } from './deps.ts';

type H = Handlers<IntegrationsServiceServer>;

const notFound = (name: string) => new NotFoundError(`Integration "${name}" not found`);

export function integrationHandlers({ store, orgs, secretsKey }: Deps): H {
  /** The integration and the caller's role in its owner; NOT_FOUND when missing or private to others. */
  async function visible(name: string, ctx: CallContext) {
    checkName('name', name);
    const row = await store.get(name);
    if (!row) throw notFound(name);
    const role = (await rolesIn(orgs, [row.ownerOrganizationId], ctx)).get(row.ownerOrganizationId)!;
    if (!allow(role, 'view', 'integration', row)) throw notFound(name);
    return { row, role };
  }

  return {
    async listIntegrations(req, ctx) {
      const filter = checkListFilter(req);
      const { limit, page } = pageArgs(req.page);
      const ownerRole = filter.owner ? (await rolesIn(orgs, [filter.owner], ctx)).get(filter.owner)! : Role.ROLE_UNSPECIFIED;
      const rows = await store.list(filter, allow(ownerRole, 'view', 'integration', { visibility: 'private' }), page);
      const { items, next } = pageOf(rows, limit, (r) => r.name);
      const roles = await rolesIn(
        orgs,
        items.map((r) => r.ownerOrganizationId),
        ctx,
      );
      return { items: items.map((r) => presentIntegration(r, roles.get(r.ownerOrganizationId)!)), page: { next } };
    },

    async getIntegration({ name }, ctx) {
      const { row, role } = await visible(name, ctx);
      return presentIntegration(row, role);
    },

    async publishIntegration(req, ctx) {
      const userId = callerOf(ctx);
      const manifest = checkManifest(req);
      const secrets = req.secrets ? sealSecrets(checkSecrets(req.secrets.values), manifest.name, secretsKey) : undefined;
      const organizationId = await resolveOrganization(orgs, req.organization, ctx);
      const { role } = await orgs.getMembership({ organizationId, userId }, ctx);
      authorizePublisher(role, req.organization);
      const row = await store.publish(manifest, organizationId, userId, secrets);
      if (!row) throw new AlreadyExistsError(`name: "${manifest.name}" is already published by another organization`);
      return presentIntegration(row, role);
    },

    async unpublishIntegration({ name }, ctx) {
      callerOf(ctx);
      const { role } = await visible(name, ctx);
      authorizeOwnerAdmin(role, name);
      await store.unpublish(name);
      return {};
    },
  };
}
