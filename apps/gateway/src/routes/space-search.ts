import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { list, ListOf, OrgParams, pageRequest } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import { SearchPageResult, SearchQuery, SearchSpaceResult } from '../schemas/space-search.ts';
import { groupBySpace, presentSearchPage } from '../presenters/space-search.ts';
import type { RouteDeps } from './context.ts';
import { operations, pageOf } from './operation.ts';

const contentOp = operations('space-content');
const orgOp = operations('organizations');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { content, spaceContent }, urls }) => {
  app.get(
    '/spaces/:spaceId/search',
    contentOp({
      operationId: 'searchSpaceContent',
      summary: "Full-text search of the space's content: pages best first, with their matching sections",
      params: SpaceParams,
      querystring: SearchQuery,
      response: { 200: ListOf(SearchPageResult) },
    }),
    async (req) => {
      const res = await spaceContent.searchSpace({ spaceId: req.params.spaceId, query: req.query.query, page: pageRequest(req.query) }, req.caller);
      return pageOf(res, (p) => presentSearchPage(p, urls));
    },
  );

  app.get(
    '/orgs/:organizationId/search',
    orgOp({
      operationId: 'searchOrganizationContent',
      summary: 'Full-text search of the spaces of the organization the caller sees, grouped by space',
      params: OrgParams,
      querystring: SearchQuery,
      response: { 200: ListOf(SearchSpaceResult) },
    }),
    async (req) => {
      const res = await spaceContent.searchOrganization({ organizationId: req.params.organizationId, query: req.query.query, page: pageRequest(req.query) }, req.caller);
      const spaceIds = [...new Set(res.items.map((p) => p.spaceId))];
      const spaces = spaceIds.length ? (await content.batchGetSpaces({ spaceIds }, req.caller)).spaces : [];
      return list(groupBySpace(res.items, new Map(spaces.map((s) => [s.id, s.title])), urls), res.page?.next);
    },
  );
};

export default routes;
