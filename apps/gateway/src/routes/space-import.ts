import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SpaceParams } from '../schemas/content.ts';
import { ImportContentBody, ImportContentResult } from '../schemas/space-import.ts';
import type { RouteDeps } from './context.ts';
import { operations } from './operation.ts';

const op = operations('space-content');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { spaceContent }, urls }) => {
  app.post(
    '/spaces/:spaceId/content/import',
    op({
      operationId: 'importContent',
      summary: "Import a website, a markdown, HTML or Word file, a Markdown folder's ZIP, or a Notion or Confluence export as the space's new content",
      params: SpaceParams,
      body: ImportContentBody,
      response: { 201: ImportContentResult },
    }),
    async (req, reply) => {
      const { spaceId } = req.params;
      const res = await spaceContent.importContent({ spaceId, url: req.body.url, source: req.body.source, revisionId: '' }, req.caller);
      return reply
        .code(201)
        .header('location', urls.api(`/spaces/${spaceId}/revisions/${res.revisionId}`))
        .send({ revision: res.revisionId, importedResources: res.importedResources, totalResources: res.totalResources });
    },
  );
};

export default routes;
