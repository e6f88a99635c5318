import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf, ListQuery, NoContent, pageRequest } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import { ExportBody, GitInfo, ImportBody, SyncLogEntry, Webhook, WebhookBody } from '../schemas/git.ts';
import { presentGitInfo, presentSyncLogEntry, repositoryOptions } from '../presenters/git.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pageOf } from './operation.ts';

const op = operations('space-git');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { gitSync }, urls }) => {
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

  app.post(
    '/spaces/:spaceId/git/webhook',
    op({
      operationId: 'setSpaceGitWebhook',
      summary:
        "Set up the space's push webhook (space admins): pushes to `ref` import the pushed commit. Answers the payload URL and a new secret, shown this once; setting it again replaces the secret",
      params: SpaceParams,
      body: WebhookBody,
      response: { 201: Webhook },
    }),
    async (req, reply) => {
      const { spaceId } = req.params;
      const { secret, ref } = await gitSync.setWebhook({ spaceId, repository: repositoryOptions(req.body), pollSeconds: req.body.pollSeconds ?? 0 }, req.caller);
      return reply.code(201).send({ url: urls.api(`/git/webhooks/${encodeURIComponent(spaceId)}`), secret, ref });
    },
  );

  app.get(
    '/spaces/:spaceId/git/log',
    op({
      operationId: 'listSpaceGitSyncLog',
      summary:
        "The space's sync log, newest first: each import and export (who or which delivery started it, the commit, pages changed, the result) and each webhook delivery that imported nothing, with why",
      params: SpaceParams,
      querystring: Type.Object(ListQuery),
      response: { 200: ListOf(SyncLogEntry) },
    }),
    async (req) => pageOf(await gitSync.listSyncLog({ spaceId: req.params.spaceId, page: pageRequest(req.query) }, req.caller), presentSyncLogEntry),
  );
};

export default routes;
