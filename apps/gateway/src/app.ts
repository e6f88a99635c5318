import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Services } from './clients.ts';
import type { GatewayConfig } from './config.ts';
import auth from './plugins/auth.ts';
import errors from './plugins/errors.ts';
import { registerValidation } from './plugins/validation.ts';
import { makeUrls } from './presenters/urls.ts';
import { makeLinkSigner } from './signing.ts';
import collections from './routes/collections.ts';
import git from './routes/git.ts';
import health from './routes/health.ts';
import insights from './routes/insights.ts';
import integrations from './routes/integrations.ts';
import invites from './routes/invites.ts';
import members from './routes/members.ts';
import organizations from './routes/organizations.ts';
import changeRequests from './routes/change-requests.ts';
import comments from './routes/comments.ts';
import reviewers from './routes/reviewers.ts';
import downloads from './routes/downloads.ts';
import spaceContent from './routes/space-content.ts';
import spaceImport from './routes/space-import.ts';
import spaceLinks from './routes/space-links.ts';
import spaceSearch from './routes/space-search.ts';
import spaces from './routes/spaces.ts';
import shareLinks from './routes/share-links.ts';
import siteStructure from './routes/site-structure.ts';
import sites from './routes/sites.ts';
import sso from './routes/sso.ts';
import teams from './routes/teams.ts';
import translations from './routes/translations.ts';
import users from './routes/users.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The whole gateway, ready to listen or to `inject` into: external plugins first, then ours. */
export async function buildApp(config: GatewayConfig, services: Services, options: FastifyServerOptions = {}) {
  const app = Fastify({
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Above every path parameter's own bound (ids 128, names 100), so that an over-long one is
    // refused by its schema with the error body rather than by the router with a bare 414.
    routerOptions: { maxParamLength: 512 },
    // genReqId reads x-request-id itself, to refuse ids that are not sane to log and echo.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    logger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] },
    ...options,
  }).withTypeProvider<TypeBoxTypeProvider>();
  registerValidation(app);
  // First, so that every route answers the error body, those of the plugins below included.
  await app.register(errors);
  app.addHook('onRequest', async (req, reply) => {
    void reply.header('x-request-id', req.id);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Quire API', version: '1.0.0', description: 'GitBook-compatible documentation platform API' },
      servers: [{ url: config.QUIRE_PUBLIC_URL }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true }, staticCSP: true });
  await app.register(rateLimit, {
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    // Per token: one client's burst does not starve the others. Requests without one count per address.
    keyGenerator: (req) => req.headers.authorization ?? req.ip,
    allowList: (req) => req.url === '/healthz' || req.url === '/readyz',
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      message: `Rate limit exceeded: ${ctx.max} requests per minute; retry in ${Math.ceil(ctx.ttl / 1000)} s`,
    }),
  });

  const deps = {
    services,
    urls: makeUrls(config.QUIRE_PUBLIC_URL, config.QUIRE_APP_URL ?? config.QUIRE_PUBLIC_URL),
    links: makeLinkSigner(config.QUIRE_PUBLIC_URL, config.QUIRE_LINK_SECRET),
  };
  await app.register(health, deps);
  await app.register(downloads, deps);
  await app.register(
    async (v1) => {
      // Every /v1 route needs a bearer token, but for the OpenAPI document.
      await v1.register(auth, { services, ttlMs: config.AUTH_CACHE_TTL_MS });
      v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
      for (const group of [users, organizations, members, teams, invites, sso, translations, integrations, collections, spaces, spaceContent, spaceSearch, spaceLinks, spaceImport, insights, changeRequests, comments, reviewers, sites, siteStructure, shareLinks, git]) await v1.register(group, deps);
    },
    { prefix: '/v1' },
  );
  return app;
}
