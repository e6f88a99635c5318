import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { GIT_SYNC } from '@quire/proto/limits';
import { errorResponses } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import { WebhookAnswer } from '../schemas/git.ts';
import type { RouteDeps } from './context.ts';

// The headers by which GitHub, GitLab, Gitea, Forgejo and Bitbucket name the event, the delivery
// and its signature: git-sync tells the host from them and verifies the body.
const WEBHOOK_HEADERS = [
  'x-github-event',
  'x-github-delivery',
  'x-hub-signature-256',
  'x-gitlab-event',
  'x-gitlab-event-uuid',
  'x-gitlab-token',
  'x-gitea-event',
  'x-gitea-delivery',
  'x-gitea-signature',
  'x-forgejo-event',
  'x-forgejo-delivery',
  'x-forgejo-signature',
  'x-event-key',
  'x-request-uuid',
  'x-hub-signature',
];

/**
 * Push webhooks from Git hosts, one payload URL per space: no token, the signature (or GitLab's
 * token) made with the space's webhook secret is the permission. The body is kept as bytes, bounded
 * before anything parses it, for the signature is over those exact bytes.
 */
const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { gitSync } }) => {
  await app.register(async (scope) => {
    const raw = scope.withTypeProvider<TypeBoxTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: GIT_SYNC.webhookBody.max }, (_req, body, done) => done(null, body));
    raw.post(
      '/git/webhooks/:spaceId',
      {
        bodyLimit: GIT_SYNC.webhookBody.max,
        config: { public: true },
        schema: {
          operationId: 'receiveGitPushWebhook',
          tags: ['space-git'],
          summary:
            "A Git host's push event (GitHub, GitLab, Gitea, Forgejo, Bitbucket; JSON), signed with the space's webhook secret: a push to the linked branch queues the import of its commit (202 `queued`), anything else is answered `ignored` with why; 401 when the signature does not match",
          params: SpaceParams,
          security: [],
          response: { 202: WebhookAnswer, ...errorResponses },
        },
      },
      async (req, reply) => {
        const headers: Record<string, string> = {};
        for (const name of WEBHOOK_HEADERS) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const body = (req.body as Buffer | undefined) ?? Buffer.alloc(0);
        const { result, reason } = await gitSync.receiveWebhook({ spaceId: req.params.spaceId, headers, body }, { requestId: req.id, ip: req.ip });
        return reply.code(202).send({ result: result as 'queued' | 'ignored', ...(reason ? { reason } : {}) });
      },
    );
  });
};

export default routes;
