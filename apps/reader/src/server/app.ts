import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import { logRedaction, securityHeaders, sessionCookieName } from '@quire/service-kit';
import { connectNats } from '@quire/service-kit/nats';
import { parseTrustProxy } from '@quire/service-kit/trust-proxy';
import telemetry from '@quire/service-kit/fastify-telemetry';
import Fastify from 'fastify';
import { mcpBodyTooLarge, mcpRequestError } from '@quire/service-kit/mcp';
import type { DestinationStream } from 'pino';
import { LRUCache } from 'lru-cache';
import type { Services } from '../clients.ts';
import type { ReaderConfig } from '../config.ts';
import { hostOf, locate, MCP_PATH } from '../domain/address.ts';
import { insightsQueue } from '../domain/insights-queue.ts';
import { place } from '../domain/structure.ts';
import { messagePage } from '../presenters/views/layout.ts';
import { html, notFound } from './respond.ts';
import { assetRoutes } from './routes/assets.ts';
import { crawlerRoutes } from './routes/crawlers.ts';
import { fileRoutes } from './routes/files.ts';
import { llmsRoutes } from './routes/llms.ts';
import { MCP_BODY_LIMIT, mcpRoute, refuseMcp } from './routes/mcp.ts';
import { openApiPages } from './openapi-page.ts';
import { openApiProxy, PROXY_BODY_LIMIT, PROXY_PATH } from './routes/openapi-proxy.ts';
import { openApiSpecs } from './openapi-specs.ts';
import { readAhead } from './read-ahead.ts';
import { pages, type Rendered } from './routes/pages.ts';
import { searchRoutes } from './routes/search.ts';
import { siteData } from './site-data.ts';
import { tracker } from './tracking.ts';
import { visitor, type SiteRoute } from './visit.ts';

/** The reader; its log goes to standard output, or to `logStream` (tests read what it writes). */
export async function buildReader(config: ReaderConfig, services: Services, logStream?: DestinationStream) {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL, ...logRedaction, ...(logStream ? { stream: logStream } : {}) },
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
  });
  await app.register(telemetry);
  await app.register(cookie);
  // Framed by the reader's own pages only, as the CSP's frame-ancestors says; a route's own referrer policy stays.
  app.addHook('onSend', async (req, reply, payload) => {
    for (const [name, value] of Object.entries(securityHeaders(req.protocol === 'https', 'SAMEORIGIN'))) if (!reply.hasHeader(name)) void reply.header(name, value);
    return payload;
  });
  const readerUrl = new URL(config.QUIRE_READER_URL);
  const readerHosts = new Set([hostOf(readerUrl.host), 'localhost', '127.0.0.1']);
  const mount = readerUrl.pathname === '/' ? '' : readerUrl.pathname;
  // The specs of a revision's pages are read ahead when it is first read (`specs` is made just below).
  const data = siteData(services, config.READER_FRESHNESS_MS, (revision, requestId) => specs.warm(revision.files, requestId), app.log);
  const specs = openApiSpecs(services, data, config.READER_FRESHNESS_MS, app.log);
  const nc = await connectNats(config.NATS_URL, 'reader', app.log);
  const ahead = readAhead(nc, config.EVENTS_SUBJECT_PREFIX, data, app.log);
  // Each page kept as HTML and gzipped once, so a cached page costs no compression.
  const rendered: Rendered = new LRUCache({ max: config.READER_CACHE_PAGES });
  const insights = insightsQueue(
    (b) =>
      services.insights.trackEvents(
        { organizationId: b.organizationId, siteId: b.siteId, clientIp: b.clientIp, bodyJson: Buffer.from(JSON.stringify({ events: b.events })) },
        data.caller('insights'),
      ),
    { limit: config.READER_INSIGHTS_QUEUE, intervalMs: 1000, onError: (err) => app.log.warn({ err }, 'insights batch not sent') },
  );
  app.addHook('onClose', async () => {
    ahead.close();
    await nc.drain();
    insights.stop();
    await insights.flush();
  });

  await assetRoutes(app);

  const visit = visitor({
    data,
    readerUrl,
    sessionCookie: sessionCookieName(config.QUIRE_PUBLIC_URL),
    siteAccess: new URL('/auth/site-access', config.QUIRE_PUBLIC_URL).toString(),
  });
  const track = tracker(insights);
  const openApi = openApiPages(specs, app.log);
  const site = pages({ data, rendered, track, openApi });
  // A site's own routes, by the first segment of the path below its base (a Map: a page named like
  // an Object method is a page).
  const mcp = mcpRoute(data, track, site);
  const special = new Map<string, SiteRoute>(
    Object.entries({
      ...crawlerRoutes(data),
      ...llmsRoutes(data, site),
      ...searchRoutes(data, track, site),
      ...fileRoutes(data),
      '~gitbook': async (v, rest) => (rest.join('/') === 'mcp' ? mcp(v) : notFound(v.reply)),
    }),
  );

  const tryIt = openApiProxy(data, openApi, site);

  // The site's MCP server takes JSON-RPC by POST, and its API reference's "Test it" sends JSON
  // there: the two routes of a site that take a body. An assistant brings a visitor token as a
  // bearer, and a refusal is a JSON-RPC error rather than a page.
  app.route({
    method: ['POST', 'DELETE'],
    url: '/*',
    bodyLimit: Math.max(MCP_BODY_LIMIT, PROXY_BODY_LIMIT),
    handler: async (req, reply) => {
      const at = locate(req.host, req.url.split('?')[0]!, readerHosts, mount);
      if (at && req.method === 'POST' && at.rest.join('/') === PROXY_PATH) {
        const v = await visit(req, reply, at, {
          refuse: (r, refused) => r.code(refused.kind === 'redirect' ? 401 : refused.status).send({ error: 'This site does not let you in' }),
        });
        return v ? tryIt(v) : reply;
      }
      if (!at || at.rest.join('/') !== MCP_PATH) return notFound(reply);
      if (Number(req.headers['content-length'] ?? 0) > MCP_BODY_LIMIT) {
        const { status, body } = mcpBodyTooLarge(MCP_BODY_LIMIT);
        return reply.code(status).send(body);
      }
      const v = await visit(req, reply, at, { bearer: true, refuse: refuseMcp });
      return v ? mcp(v) : reply;
    },
  });

  app.get('/*', async (req, reply) => {
    // req.host: the Host a trusted proxy forwarded (X-Forwarded-Host), else the request's own, as the origin of `visit` reads it.
    const at = locate(req.host, req.url.split('?')[0]!, readerHosts, mount);
    if (!at) return notFound(reply);
    const v = await visit(req, reply, at);
    if (!v) return reply;
    const route = at.rest[0] !== undefined ? special.get(at.rest[0]) : undefined;
    if (route && (at.rest.length === 1 || at.rest[0]!.startsWith('~'))) return route(v, at.rest.slice(1));
    const placement = place(v.view.structure!, at.rest);
    if (!placement) return notFound(reply, 'This site has no content yet.');
    return site.readPage(v, placement);
  });

  app.setNotFoundHandler((_req, reply) => notFound(reply));
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    // The request's own fault (a body too large or not JSON, for the MCP server): said as such.
    const fault = mcpRequestError(err, req.url.split('?')[0]!.endsWith(`/${MCP_PATH}`) ? MCP_BODY_LIMIT : PROXY_BODY_LIMIT);
    if (fault) return reply.code(fault.status).send(fault.body);
    req.log.error({ err }, 'reader failed');
    reply.header('cache-control', 'no-store');
    return html(reply, 503, messagePage({ status: 503, title: 'Temporarily unavailable', message: 'This page could not be shown just now. Try again in a moment.' }));
  });

  return { app, insights, flushInsights: () => insights.flush(), rendered };
}
