import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyPluginAsync, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import cookie from '@fastify/cookie';
import httpProxy from '@fastify/http-proxy';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { checkClientJson, ConfigError, InvalidArgumentError, logRedaction, securityHeaders, type Logger } from '@quire/service-kit';
import { parseTrustProxy } from '@quire/service-kit/trust-proxy';
import { connectNats, eventSink } from '@quire/service-kit/nats';
import type { Services } from './clients.ts';
import { makeAuthenticator } from './credentials.ts';
import { makeSessions } from './sessions.ts';
import type { GatewayConfig } from './config.ts';
import { Limiter } from './limiter.ts';
import auth from './plugins/auth.ts';
import audit from './routes/audit.ts';
import signIn from './routes/auth.ts';
import ssoSignIn from './routes/sso-signin.ts';
import errors from './plugins/errors.ts';
import rateLimit from './plugins/rate-limit.ts';
import telemetry from '@quire/service-kit/fastify-telemetry';
import { registerValidation } from './plugins/validation.ts';
import { makeUrls } from './presenters/urls.ts';
import { linkSecrets, makeLinkSigner } from './signing.ts';
import collections from './routes/collections.ts';
import git from './routes/git.ts';
import gitWebhooks from './routes/git-webhooks.ts';
import health from './routes/health.ts';
import insights from './routes/insights.ts';
import integrations from './routes/integrations.ts';
import invites from './routes/invites.ts';
import mcp from './routes/mcp.ts';
import members from './routes/members.ts';
import openapi from './routes/openapi.ts';
import organizations from './routes/organizations.ts';
import changeRequests from './routes/change-requests.ts';
import exportsRoutes from './routes/exports.ts';
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
import web from './routes/web.ts';

const API_VERSION = '1.0.0';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The whole gateway, ready to listen or to `inject` into: external plugins first, then ours. The
 * log goes to standard output, or to `logStream` (tests read what it writes).
 */
export async function buildApp(config: GatewayConfig, services: Services, { logStream, ...options }: FastifyServerOptions & { logStream?: DestinationStream } = {}) {
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
    logger: { level: config.LOG_LEVEL, ...logRedaction, ...(logStream ? { stream: logStream } : {}) },
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    ...options,
  }).withTypeProvider<TypeBoxTypeProvider>();
  registerValidation(app);
  // Every JSON body's nesting is bounded before it is parsed: deeper values would overflow the
  // stack of whatever walks them later (a 500, not the 400 it is).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    try {
      checkClientJson(text, 'body');
    } catch (err) {
      return done(err as Error, undefined);
    }
    parseJson(req, text, done);
  });
  const sessions = makeSessions(config.QUIRE_PUBLIC_URL, services);
  // One NATS connection: the shared rate-limit counters, and the revocations of tokens and
  // sessions that reach every replica. Fastify's logger is pino's; its type only lacks pino's extras the helpers do not use.
  const log = app.log as unknown as Logger;
  const nc = await connectNats(config.NATS_URL, 'gateway', log);
  const authenticator = makeAuthenticator(services, config.AUTH_CACHE_TTL_MS, nc, log);
  await authenticator.ready();
  const limiter = await Limiter.shared(nc, config.RATE_LIMIT_BUCKET, app.log);
  app.addHook('onClose', async () => {
    authenticator.close();
    // The last hits admitted reach the shared counters while NATS still takes them.
    await limiter.close();
    await nc.drain();
  });
  app.decorateRequest('caller', undefined as unknown as FastifyRequest['caller']);
  // First, so that every route answers the error body, those of the plugins below included.
  await app.register(errors);
  await app.register(telemetry);
  app.addHook('onRequest', async (req, reply) => {
    void reply.header('x-request-id', req.id);
    // A NUL in a path or query would reach a store that refuses it (a 500): refused here, as in bodies.
    if (req.url.includes('%00')) throw new InvalidArgumentError('url: must not contain NUL (%00)');
  });
  app.addHook('onSend', async (req, reply, payload) => {
    for (const [name, value] of Object.entries(securityHeaders(req.protocol === 'https', 'DENY'))) if (!reply.hasHeader(name)) void reply.header(name, value);
    // An answer made for a caller (a token, a session) is theirs: no shared or browser cache keeps it.
    const personal = req.caller?.userId !== undefined || req.headers.authorization !== undefined || req.headers.cookie !== undefined;
    if (personal && !reply.hasHeader('cache-control') && String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      void reply.header('cache-control', 'no-store');
    return payload;
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Quire API', version: API_VERSION, description: 'GitBook-compatible documentation platform API' },
      servers: [{ url: config.QUIRE_PUBLIC_URL }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          session: { type: 'apiKey', in: 'cookie', name: sessions.cookieName, description: 'Set by POST /auth/sign-in; writes also send `x-csrf-token`' },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
  });
  await app.register(cookie);
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true }, staticCSP: true });
  await app.register(rateLimit, { limiter, perToken: config.RATE_LIMIT_PER_MINUTE, perAddress: config.RATE_LIMIT_ADDRESS_PER_MINUTE });

  const secrets = linkSecrets(config);
  const deps = {
    services,
    urls: makeUrls(config.QUIRE_PUBLIC_URL, config.QUIRE_APP_URL ?? config.QUIRE_PUBLIC_URL, config.QUIRE_READER_URL),
    links: makeLinkSigner(config.QUIRE_PUBLIC_URL, secrets),
    sessions,
    authenticator,
    signInThrottle: { perAccount: config.SIGN_IN_FAILURES_PER_ACCOUNT, perAddress: config.SIGN_IN_FAILURES_PER_ADDRESS, windowMs: config.SIGN_IN_WINDOW_MS },
  };
  if (config.READER_UPSTREAM_URL) await app.register(readerProxy, { publicUrl: config.QUIRE_PUBLIC_URL, readerUrl: config.QUIRE_READER_URL, upstream: config.READER_UPSTREAM_URL });
  if (config.COLLAB_UPSTREAM_URL) await app.register(collabProxy, { upstream: config.COLLAB_UPSTREAM_URL });
  await app.register(health, deps);
  await app.register(downloads, deps);
  await app.register(signIn, { ...deps, prefix: '/auth' });
  await app.register(ssoSignIn, { ...deps, prefix: '/auth', publicUrl: config.QUIRE_PUBLIC_URL, stateSecrets: secrets });
  await app.register(mcp, { authenticator, sessions, events: eventSink(nc, 'gateway', config.EVENTS_SUBJECT_PREFIX, log), version: API_VERSION });
  await app.register(
    async (v1) => {
      // Every /v1 route needs a bearer token or a session, but for the OpenAPI document.
      await v1.register(auth, { authenticator, sessions });
      v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
      for (const group of [
        users,
        organizations,
        audit,
        members,
        teams,
        invites,
        sso,
        translations,
        openapi,
        integrations,
        collections,
        spaces,
        spaceContent,
        spaceSearch,
        spaceLinks,
        spaceImport,
        insights,
        changeRequests,
        exportsRoutes,
        comments,
        reviewers,
        sites,
        siteStructure,
        shareLinks,
        git,
        gitWebhooks,
      ])
        await v1.register(group, deps);
    },
    { prefix: '/v1' },
  );
  if (config.QUIRE_WEB_DIST) await app.register(web, { dist: config.QUIRE_WEB_DIST });
  return app;
}

/**
 * The reader on the gateway's origin: its sites (below QUIRE_READER_URL's path) and its assets
 * (`/_reader/`) are passed to READER_UPSTREAM_URL as they are, Host and cookies included.
 */
const readerProxy: FastifyPluginAsync<{ publicUrl: string; readerUrl: string; upstream: string }> = async (app, { publicUrl, readerUrl, upstream }) => {
  const reader = new URL(readerUrl);
  if (reader.origin !== new URL(publicUrl).origin || reader.pathname === '/') {
    throw new ConfigError("READER_UPSTREAM_URL: QUIRE_READER_URL must then be this gateway's origin with a path (like http://127.0.0.1:8080/read)");
  }
  const mount = reader.pathname.endsWith('/') ? reader.pathname.slice(0, -1) : reader.pathname;
  // Bodies pass through untouched: the proxy brings its own parsers, in this scope only.
  app.removeAllContentTypeParsers();
  for (const prefix of [mount, '/_reader'])
    await app.register(httpProxy, {
      upstream,
      prefix,
      rewritePrefix: prefix,
      replyOptions: { rewriteRequestHeaders: (req, headers) => ({ ...headers, host: req.headers.host ?? headers.host }) },
    });
};

/** `/collab` WebSockets to the collaboration server, with what it authenticates and checks: the session cookie and the Origin. */
const collabProxy: FastifyPluginAsync<{ upstream: string }> = async (app, { upstream }) => {
  const forwarded = ['cookie', 'origin', 'user-agent'] as const;
  // The proxy's hook for the outgoing socket's headers (its types leave it out; it forwards the cookie alone by default).
  const wsClientOptions = {
    headers: {},
    rewriteRequestHeaders: (headers: Record<string, string>, req: FastifyRequest) => ({
      ...headers,
      ...Object.fromEntries(forwarded.filter((h) => req.headers[h]).map((h) => [h, req.headers[h]])),
    }),
  };
  // The proxy brings its own body parsers, in this scope only.
  app.removeAllContentTypeParsers();
  await app.register(httpProxy, { upstream, prefix: '/collab', websocket: true, wsClientOptions });
};
