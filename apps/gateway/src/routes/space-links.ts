import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Id, ListOf, ListQuery, pageRequest } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import { ContentLocation, LinkList, LinksQuery } from '../schemas/space-links.ts';
import { linkPresenters, linksOf } from '../presenters/space-links.ts';
import type { RouteDeps } from './context.ts';
import { operations, pageOf } from './operation.ts';

const op = operations('links');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const { spaceContent } = deps.services;
  app.get(
    '/spaces/:spaceId/links',
    op({
      operationId: 'listSpaceLinks',
      summary: "The links of the space's content, one per target with the pages linking to it, and their status",
      params: SpaceParams,
      querystring: LinksQuery,
      response: { 200: LinkList },
    }),
    async (req) => linksOf(deps, req.caller, { spaceId: req.params.spaceId, revisionId: '', pageId: '' }, req.query),
  );

  app.get(
    '/spaces/:spaceId/content/page/:pageId/links',
    op({
      operationId: 'listPageLinksInSpace',
      summary: 'The links of one page of the space, with their status',
      params: Type.Object({ spaceId: Id('Space id'), pageId: Id('Page id') }),
      querystring: LinksQuery,
      response: { 200: LinkList },
    }),
    async (req) => linksOf(deps, req.caller, { spaceId: req.params.spaceId, revisionId: '', pageId: req.params.pageId }, req.query),
  );

  app.get(
    '/spaces/:spaceId/content/files/:fileId/backlinks',
    op({
      operationId: 'listSpaceFileBacklinks',
      summary: 'The pages that link to or embed the file',
      params: Type.Object({ spaceId: Id('Space id'), fileId: Id('File id') }),
      querystring: Type.Object(ListQuery),
      response: { 200: ListOf(ContentLocation) },
    }),
    async (req) => {
      const res = await spaceContent.listFileBacklinks({ spaceId: req.params.spaceId, revisionId: '', fileId: req.params.fileId, page: pageRequest(req.query) }, req.caller);
      const { location } = await linkPresenters(deps, req.caller, req.params.spaceId, '');
      return pageOf(res, location);
    },
  );
};

export default routes;
