import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import { ExportBody, GitInfo, ImportBody } from '../schemas/git.ts';
import { presentGitInfo, repositoryOptions } from '../presenters/git.ts';
import type { RouteDeps } from './context.ts';
import { done, operations } from './operation.ts';

const op = operations('space-git');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { gitSync } }) => {
  app.post(
    '/spaces/:spaceId/git/import',
    op({
      operationId: 'importGitRepository',
      summary: 'Import a Git repository into the space; answers once the import is queued (its outcome shows in git/info)',
      params: SpaceParams,
      body: ImportBody,
      response: { 204: NoContent },
    }),
    async (req, reply) =>
      done(reply, 204, gitSync.importRepository({ spaceId: req.params.spaceId, repository: repositoryOptions(req.body), standalone: req.body.standalone ?? false }, req.caller)),
  );

  app.post(
    '/spaces/:spaceId/git/export',
    op({
      operationId: 'exportToGitRepository',
      summary: 'Export the space to a Git repository; answers once the export is queued (its outcome shows in git/info)',
      params: SpaceParams,
      body: ExportBody,
      response: { 204: NoContent },
    }),
    async (req, reply) =>
      done(reply, 204, gitSync.exportRepository({ spaceId: req.params.spaceId, repository: repositoryOptions(req.body), commitMessage: req.body.commitMessage }, req.caller)),
  );

  app.get(
    '/spaces/:spaceId/git/info',
    op({
      operationId: 'getSpaceGitInfo',
      summary: "The space's Git link, with its latest import or export (`job`); 404 when none is set up",
      params: SpaceParams,
      response: { 200: GitInfo },
    }),
    async (req) => presentGitInfo(await gitSync.getGitInfo({ spaceId: req.params.spaceId }, req.caller)),
  );
};

export default routes;
