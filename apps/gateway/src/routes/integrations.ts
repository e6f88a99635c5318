import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { INTEGRATION } from '@quire/proto/limits';
import type { Integration as IntegrationMsg } from '@quire/proto/integrations';
import { NotFoundError, type Caller } from '@quire/service-kit';
import { chars, Id, list, ListOf, ListQuery, NoContent, pageRequest } from '../schemas/common.ts';
import { BlockDomain, Integration, IntegrationCategory, IntegrationName, IntegrationScope, IntegrationTarget, PublishIntegrationBody } from '../schemas/integrations.ts';
import { presentIntegration, publishRequest } from '../presenters/integrations.ts';
import type { RouteDeps } from './context.ts';
import { done, operations } from './operation.ts';

const op = operations('integrations');
const Params = Type.Object({ integrationName: IntegrationName });

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { integrations, orgs }, urls }) => {
  /** The integrations with their owner organizations, fetched in one call whatever their number. */
  async function present(items: IntegrationMsg[], caller: Caller) {
    const organizationIds = [...new Set(items.map((i) => i.ownerOrganizationId))];
    const { organizations } = organizationIds.length ? await orgs.batchGetOrganizations({ organizationIds }, caller) : { organizations: [] };
    const owners = new Map(organizations.map((o) => [o.id, o]));
    // An integration whose owner orgs no longer knows is not shown.
    return items.flatMap((i) => {
      const owner = owners.get(i.ownerOrganizationId);
      return owner ? [presentIntegration(i, owner, urls)] : [];
    });
  }

  async function presentOne(item: IntegrationMsg, caller: Caller) {
    const [shown] = await present([item], caller);
    if (!shown) throw new NotFoundError(`Integration "${item.name}" not found`);
    return shown;
  }

  app.get(
    '/integrations',
    op({
      operationId: 'listIntegrations',
      summary: "List public integrations, and all of an organization's own for its members (`owner`)",
      querystring: Type.Object({
        ...ListQuery,
        search: Type.Optional(Type.String({ ...chars(INTEGRATION.search), description: 'Name or title contains, case-insensitive' })),
        category: Type.Optional(IntegrationCategory),
        blockDomain: Type.Optional(BlockDomain),
        blocks: Type.Optional(Type.Boolean({ description: 'true: only integrations with blocks; false: only those without' })),
        contentSources: Type.Optional(Type.Boolean({ description: 'true: only integrations with content sources; false: only those without' })),
        owner: Type.Optional(Id('Organization id: only the integrations it owns')),
        scope: Type.Optional(IntegrationScope),
        target: Type.Optional(IntegrationTarget),
      }),
      response: { 200: ListOf(Integration) },
    }),
    async (req) => {
      const { page, limit, ...filter } = req.query;
      const res = await integrations.listIntegrations({ page: pageRequest({ page, limit }), ...filter }, req.caller);
      return list(await present(res.items, req.caller), res.page?.next);
    },
  );

  app.get(
    '/integrations/:integrationName',
    op({ operationId: 'getIntegrationByName', summary: 'Get an integration by its name', params: Params, response: { 200: Integration } }),
    async (req) => presentOne(await integrations.getIntegration({ name: req.params.integrationName }, req.caller), req.caller),
  );

  app.post(
    '/integrations/:integrationName',
    op({
      operationId: 'publishIntegration',
      summary: 'Publish an integration, or a new version of it (admins of the organization)',
      params: Params,
      body: PublishIntegrationBody,
      response: { 200: Integration },
    }),
    async (req) => presentOne(await integrations.publishIntegration(publishRequest(req.params.integrationName, req.body), req.caller), req.caller),
  );

  app.delete(
    '/integrations/:integrationName',
    op({ operationId: 'unpublishIntegration', summary: 'Unpublish an integration (admins of the owner organization)', params: Params, response: { 204: NoContent } }),
    async (req, reply) => done(reply, 204, integrations.unpublishIntegration({ name: req.params.integrationName }, req.caller)),
  );
};

export default routes;
