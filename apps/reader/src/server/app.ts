import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import cookie from '@fastify/cookie';
import type { File, Page, Revision } from '@quire/proto/space-content';
import type { SiteSection, SiteSpace } from '@quire/proto/sites';
import { logRedaction, securityHeaders } from '@quire/service-kit';
import { parseTrustProxy } from '@quire/service-kit/trust-proxy';
import telemetry from '@quire/service-kit/fastify-telemetry';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { sessionCookieName, SITE_MEMBER_GRANT_SECONDS } from '@quire/service-kit';
import { LRUCache } from 'lru-cache';
import type { Services } from '../clients.ts';
import type { ReaderConfig } from '../config.ts';
import { hostOf, locate, pathIn, type Located } from '../domain/address.ts';
import { MEMBER_COOKIE, MEMBER_PARAM, refusal, SHARE_COOKIE, SHARE_PARAM, TOKEN_COOKIE, TOKEN_PARAM } from '../domain/access.ts';
import { insightsQueue } from '../domain/insights-queue.ts';
import { coverOf, INLINE_IMAGE, shownOf } from '../domain/page-look.ts';
import { findByPath, firstPage, neighbours, readingOrder, redirectOf } from '../domain/pages.ts';
import { includedIds, includeTargets, inlineMarkdown, renderDocument } from '@quire/render';
import { mentionedUsers } from '@quire/document';
import { allSiteSpaces, place, sectionEntry, siteSpacePrefix, type Placement } from '../domain/structure.ts';
import { ASSETS, THEME_BOOT } from '../presenters/assets.ts';
import { messagePage } from '../presenters/views/layout.ts';
import { searchPage, sitePage, type Chrome } from '../presenters/views/page.ts';
import { siteData, type SiteView } from './site-data.ts';

const VISITOR_COOKIE = 'quire_vid';
const SESSION_COOKIE = 'quire_sid';
const SESSION_SECONDS = 30 * 60;
const MAX_QUERY = 256;
const MAX_SEARCH_SPACES = 20;
const gzip = promisify(gzipCb);

/** Whether the client takes gzip (and has not refused it with q=0). */
const takesGzip = (req: FastifyRequest) => {
  const accept = req.headers['accept-encoding'];
  return typeof accept === 'string' && accept.includes('gzip') && !/gzip;\s*q=0(?:[^.\d]|$)/.test(accept);
};

// Scripts: ours and the theme boot only; styles inline for KaTeX; nothing from content runs.
const CSP = `default-src 'self'; script-src 'self' 'sha256-${createHash('sha256').update(THEME_BOOT).digest('base64')}'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; object-src 'none'; base-uri 'none'; frame-ancestors 'self'`;

interface Visit {
  req: FastifyRequest;
  reply: FastifyReply;
  at: Located;
  view: SiteView;
  /** Absolute origin of the site's pages (`https://docs.example.com` or the reader's URL). */
  origin: string;
}

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
  const sessionCookie = sessionCookieName(config.QUIRE_PUBLIC_URL);
  const siteAccess = new URL('/auth/site-access', config.QUIRE_PUBLIC_URL).toString();
  const data = siteData(services, config.READER_FRESHNESS_MS);
  // Each page kept as HTML and gzipped once, so a cached page costs no compression.
  const rendered = new LRUCache<string, { html: string; gzip: Buffer }>({ max: config.READER_CACHE_PAGES });
  const insights = insightsQueue(
    (b) =>
      services.insights.trackEvents(
        { organizationId: b.organizationId, siteId: b.siteId, clientIp: b.clientIp, bodyJson: Buffer.from(JSON.stringify({ events: b.events })) },
        data.caller('insights'),
      ),
    { limit: config.READER_INSIGHTS_QUEUE, intervalMs: 1000, onError: (err) => app.log.warn({ err }, 'insights batch not sent') },
  );
  app.addHook('onClose', async () => {
    insights.stop();
    await insights.flush();
  });

  for (const asset of Object.values(ASSETS)) {
    const zipped = await gzip(asset.body);
    app.get(asset.path, (req, reply) => {
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding').type(asset.type);
      return takesGzip(req) ? reply.header('content-encoding', 'gzip').send(zipped) : reply.send(asset.body);
    });
  }
  app.get('/healthz', async () => ({ status: 'ok' }));

  const html = (reply: FastifyReply, status: number, body: string | Buffer) =>
    reply
      .code(status)
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .type('text/html; charset=utf-8')
      .send(body);
  const notFound = (reply: FastifyReply, message = 'There is no published site at this address.') => html(reply, 404, messagePage({ status: 404, title: 'Not found', message }));

  /** Credentials from the query (then kept in a cookie scoped to the site) or from that cookie. */
  function proof(req: FastifyRequest, reply: FastifyReply, at: Located) {
    const query = req.query as Record<string, string | undefined>;
    const cookiePath = at.base || '/';
    const secure = req.protocol === 'https';
    const take = (param: string, name: string) => {
      const fromQuery = typeof query[param] === 'string' && query[param]!.length <= 8192 ? query[param] : undefined;
      if (fromQuery) reply.setCookie(name, fromQuery, { path: cookiePath, httpOnly: true, sameSite: 'lax', secure });
      return fromQuery ?? req.cookies[name];
    };
    const fromQuery = query[MEMBER_PARAM];
    const memberGrant = typeof fromQuery === 'string' && fromQuery.length <= 4096 ? fromQuery : req.cookies[MEMBER_COOKIE];
    if (memberGrant === fromQuery && memberGrant)
      reply.setCookie(MEMBER_COOKIE, memberGrant, { path: cookiePath, httpOnly: true, sameSite: 'lax', secure, maxAge: SITE_MEMBER_GRANT_SECONDS });
    // The sign-in session reaches the reader where it answers on the gateway's origin (site paths), never on a custom hostname.
    const session = at.address.kind === 'path' ? req.cookies[sessionCookie] : undefined;
    return {
      shareKey: take(SHARE_PARAM, SHARE_COOKIE),
      visitorToken: take(TOKEN_PARAM, TOKEN_COOKIE),
      memberSession: session && session.length <= 256 ? session : undefined,
      memberGrant,
    };
  }

  /** The visitor and session ids (cookies kept by the browser), and the event's session part. */
  function session(v: Visit) {
    const secure = v.req.protocol === 'https';
    const visitorId = v.req.cookies[VISITOR_COOKIE] ?? randomUUID();
    const sessionId = v.req.cookies[SESSION_COOKIE] ?? randomUUID();
    v.reply.setCookie(VISITOR_COOKIE, visitorId, { path: '/', maxAge: 365 * 86400, sameSite: 'lax', httpOnly: true, secure });
    v.reply.setCookie(SESSION_COOKIE, sessionId, { path: '/', maxAge: SESSION_SECONDS, sameSite: 'lax', httpOnly: true, secure });
    const language = v.req.headers['accept-language']?.split(',')[0]?.slice(0, 64) ?? null;
    const referrer = v.req.headers.referer;
    return {
      visitorId,
      sessionId,
      cookies: {},
      userAgent: (v.req.headers['user-agent'] ?? '').slice(0, 1024),
      language,
      referrer: referrer && /^https?:\/\//.test(referrer) ? referrer.slice(0, 2048) : null,
      visitorAuthClaims: JSON.parse(v.view.claimsJson) as Record<string, unknown>,
    };
  }

  function track(
    v: Visit,
    type: string,
    location: { section?: string; siteSpace?: string; space?: string; revision?: string; page?: string },
    extra: Record<string, unknown> = {},
  ) {
    const site = v.view.site!;
    insights.push({
      organizationId: site.organizationId,
      siteId: site.id,
      clientIp: v.req.ip,
      event: {
        type,
        timestamp: new Date().toISOString(),
        session: session(v),
        location: {
          url: `${v.origin}${v.req.url}`.slice(0, 2048),
          siteSection: location.section ?? null,
          siteSpace: location.siteSpace ?? null,
          siteShareKey: null,
          space: location.space ?? null,
          revision: location.revision ?? null,
          page: location.page ?? null,
        },
        ...extra,
      },
    });
  }

  /** Links of a placement: tabs, variants, pages. */
  function chromeOf(v: Visit, placement: Placement, revision: Revision, currentPageId?: string): Chrome {
    const base = v.at.base;
    const spaceHref = (section: SiteSection | undefined, siteSpace: SiteSpace) => pathIn(base, siteSpacePrefix(section, siteSpace)).replace(/\/$/, '') || '/';
    const hrefOf = (page: Page) => pathIn(base, [...siteSpacePrefix(placement.section, placement.siteSpace), ...page.path.split('/')]);
    return {
      look: v.view.look,
      home: base || '/',
      base,
      tabs: placement.tabs.map((t) => {
        const entry = sectionEntry(t.section);
        return { title: t.section.title, href: entry ? spaceHref(t.section, entry) : base || '/', current: t.section.id === placement.section?.id, group: t.group?.title };
      }),
      variants: placement.variants.map((s) => ({ title: s.title, href: spaceHref(placement.section, s), current: s.id === placement.siteSpace.id })),
      pages: revision.pages,
      hrefOf,
      currentPageId,
    };
  }

  const metaOf = (v: Visit, title: string, path: string, description?: string) => ({
    title,
    siteTitle: v.view.look.title,
    description: description || undefined,
    canonical: `${v.origin}${path}`,
    noindex: v.view.site!.visibility !== 'public',
    base: v.at.base,
    look: v.view.look,
  });

  /** Finds the site of a request and lets the visitor in, or answers for it (404, refusal). */
  async function visit(req: FastifyRequest, reply: FastifyReply, at: Located): Promise<Visit | undefined> {
    const creds = proof(req, reply, at);
    const view = await data.view(at.address, creds, req.id);
    if (!view) {
      notFound(reply);
      return undefined;
    }
    const origin = at.address.kind === 'hostname' ? `${req.protocol}://${req.host}` : readerUrl.origin;
    const here = `${origin}${req.url}`;
    const site = view.site!;
    const memberSignIn = `${siteAccess}?${new URLSearchParams({ organization: site.organizationId, site: site.id, location: here })}`;
    const refused = refusal({
      access: view.access,
      offered: view.access === 'share-key' ? !!creds.shareKey : !!creds.visitorToken,
      fallbackUrl: view.fallbackUrl,
      here,
      memberSignIn,
    });
    if (refused) {
      const cookiePath = at.base || '/';
      if (view.access === 'share-key' && creds.shareKey) reply.clearCookie(SHARE_COOKIE, { path: cookiePath });
      if (view.access === 'visitor-token' && creds.visitorToken) reply.clearCookie(TOKEN_COOKIE, { path: cookiePath });
      if (creds.memberGrant) reply.clearCookie(MEMBER_COOKIE, { path: cookiePath });
      reply.header('cache-control', 'no-store');
      if (refused.kind === 'redirect') reply.redirect(refused.location, 302);
      else
        html(
          reply,
          refused.status,
          messagePage({ status: refused.status, title: refused.title, message: refused.message, siteTitle: site.title, memberSignIn: refused.memberSignIn }),
        );
      return undefined;
    }
    // A member let in past a visitor token that no longer holds: the token is dropped, as a refusal drops it.
    if (view.visitorTokenInvalid && creds.visitorToken) reply.clearCookie(TOKEN_COOKIE, { path: at.base || '/' });
    const open = !view.member && (site.visibility === 'public' || site.visibility === 'unlisted');
    reply.header('cache-control', open ? 'public, max-age=0, must-revalidate' : 'private, no-cache');
    if (site.visibility !== 'public') reply.header('x-robots-tag', 'noindex');
    return { req, reply, at, view, origin };
  }

  /** Where a site-space's pages live, with its revision. */
  async function spaceOf(v: Visit, placement: Placement) {
    const revision = await data.revision(placement.siteSpace.spaceId, v.req.id);
    return { revision, chrome: chromeOf(v, placement, revision) };
  }

  async function readPage(v: Visit, placement: Placement) {
    const { revision, chrome } = await spaceOf(v, placement);
    const pathText = placement.pagePath.join('/');
    const markdownWanted = /\.md$/i.test(pathText);
    const wanted = markdownWanted ? pathText.replace(/\.md$/i, '') : pathText;
    const node = wanted === '' ? firstPage(revision.pages) : findByPath(revision.pages, wanted);
    const location = { section: placement.section?.id, siteSpace: placement.siteSpace.id, space: placement.siteSpace.spaceId, revision: revision.id };
    if (!node) {
      // An old path the space's Git repository redirects (`.gitbook.yaml`): for good, to its page.
      const moved = markdownWanted ? undefined : redirectOf(revision.pages, revision.redirects, wanted);
      if (moved) return v.reply.redirect(`${chrome.hrefOf(moved.page)}${moved.anchor ? `#${encodeURIComponent(moved.anchor)}` : ''}`, 301);
      track(v, 'page_view', location);
      return html(v.reply, 404, sitePage(metaOf(v, 'Page not found', v.req.url.split('?')[0]!), chrome, { missing: `No page at “${wanted}” in ${placement.siteSpace.title}.` }));
    }
    const page = node.page;
    if (page.type === 'link') return v.reply.redirect(/^(https?:|mailto:)/i.test(page.href) ? page.href : chrome.hrefOf(page).replace(/\/[^/]*$/, '/') + page.href, 302);
    track(v, 'page_view', { ...location, page: page.id });

    if (markdownWanted)
      return v.reply.type('text/markdown; charset=utf-8').send(`# ${page.title}\n\n${await pageMarkdown(placement.siteSpace.spaceId, revision, page.id, v.req.id)}`);

    const etag = `"${createHash('sha256').update([v.view.digest, revision.id, page.id, ASSETS.css.path, ASSETS.js.path, v.at.base, v.origin].join('|')).digest('base64url').slice(0, 27)}"`;
    v.reply.header('etag', etag);
    if (v.req.headers['if-none-match'] === etag) return v.reply.code(304).send();
    let kept = rendered.get(etag);
    if (!kept) {
      // The stored model, so the site shows what the editor wrote (markdown cannot carry all of it).
      const document = await data.document(placement.siteSpace.spaceId, revision.id, page.id, v.req.id);
      const files = revision.files;
      const fileHref = (f: File) => `${v.at.base}/~files/${encodeURIComponent(placement.siteSpace.id)}/${encodeURIComponent(f.id)}`;
      const [reusableContents, memberNames] = await Promise.all([
        data.includes(placement.siteSpace.spaceId, revision, includedIds(document), v.req.id),
        data.memberNames(v.view.site!.organizationId, mentionedUsers(document), v.req.id),
      ]);
      const out = renderDocument(document, {
        page,
        pages: revision.pages,
        files,
        hrefOf: chrome.hrefOf,
        fileHref,
        reusableContents,
        memberNames,
      });
      const { previous, next } = neighbours(revision.pages, page.id);
      const tab = placement.tabs.length > 1 ? chrome.tabs.find((t) => t.current) : undefined;
      const crumbs = [
        ...(tab ? [{ title: tab.title, href: tab.href }] : []),
        ...node.parents.map((p) => ({ title: p.title, href: p.type === 'document' ? chrome.hrefOf(p) : undefined })),
      ];
      const body = sitePage(
        metaOf(v, page.title, chrome.hrefOf(page), page.description),
        { ...chrome, currentPageId: page.id },
        {
          title: page.title,
          description: page.description,
          html: out.html,
          outline: out.outline,
          crumbs,
          previous: previous && { title: previous.title, href: chrome.hrefOf(previous) },
          next: next && { title: next.title, href: chrome.hrefOf(next) },
          cover: coverOf(page, files, fileHref),
          shown: shownOf(page),
        },
      );
      kept = { html: body, gzip: await gzip(body) };
      rendered.set(etag, kept);
    }
    v.reply.header('vary', 'accept-encoding');
    if (!takesGzip(v.req)) return html(v.reply, 200, kept.html);
    v.reply.header('content-encoding', 'gzip');
    return html(v.reply, 200, kept.gzip);
  }

  /** A page's markdown for its `.md` and llms-full.txt: what it includes written in place, for readers that cannot follow an include. */
  async function pageMarkdown(spaceId: string, revision: Revision, pageId: string, requestId: string): Promise<string> {
    const md = await data.markdown(spaceId, revision.id, pageId, requestId);
    return inlineMarkdown(md, await data.includes(spaceId, revision, includeTargets(md), requestId));
  }

  /** Every readable page of the site (default section and site-space first), with its URL. */
  async function everyPage(v: Visit) {
    const out: { url: string; page: Page; spaceId: string; revision: Revision; siteSpace: string }[] = [];
    for (const { section, siteSpace } of allSiteSpaces(v.view.structure!)) {
      const revision = await data.revision(siteSpace.spaceId, v.req.id);
      const prefix = siteSpacePrefix(section, siteSpace);
      for (const n of readingOrder(revision.pages))
        out.push({
          url: `${v.origin}${pathIn(v.at.base, [...prefix, ...n.page.path.split('/')])}`,
          page: n.page,
          spaceId: siteSpace.spaceId,
          revision,
          siteSpace: section ? `${section.title} / ${siteSpace.title}` : siteSpace.title,
        });
    }
    return out;
  }

  async function search(v: Visit, query: string) {
    const spaces = allSiteSpaces(v.view.structure!).slice(0, MAX_SEARCH_SPACES);
    const found = await Promise.all(
      spaces.map(async ({ section, siteSpace }) => {
        const items = await data.search(siteSpace.spaceId, query, v.req.id);
        const prefix = siteSpacePrefix(section, siteSpace);
        return items.map((p) => ({
          title: p.title,
          url: `${pathIn(v.at.base, [...prefix, ...p.path.split('/')])}${p.sections[0]?.id ? `#${p.sections[0].id}` : ''}`,
          section: spaces.length > 1 ? (section ? `${section.title} › ${siteSpace.title}` : siteSpace.title) : p.sections[0]?.title || undefined,
        }));
      }),
    );
    track(v, 'search_type_query', {}, { query: query.slice(0, 512) });
    return found.flat().slice(0, 20);
  }

  const SPECIAL: Record<string, (v: Visit, rest: string[]) => Promise<unknown>> = {
    'robots.txt': async (v) =>
      v.reply
        .type('text/plain; charset=utf-8')
        .send(v.view.site!.visibility === 'public' ? `User-agent: *\nAllow: /\nSitemap: ${v.origin}${v.at.base}/sitemap.xml\n` : 'User-agent: *\nDisallow: /\n'),
    'sitemap.xml': async (v) => {
      const pages = v.view.site!.visibility === 'public' ? await everyPage(v) : [];
      const xmlEsc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      return v.reply
        .type('application/xml; charset=utf-8')
        .send(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pages.map((p) => `<url><loc>${xmlEsc(p.url)}</loc></url>`).join('\n')}\n</urlset>\n`,
        );
    },
    'llms.txt': async (v) => {
      const pages = await everyPage(v);
      const lines = [`# ${v.view.look.title}`, ''];
      let group = '';
      for (const p of pages) {
        if (p.siteSpace !== group) lines.push('', `## ${p.siteSpace}`, '');
        group = p.siteSpace;
        lines.push(`- [${p.page.title}](${p.url}.md)${p.page.description ? `: ${p.page.description}` : ''}`);
      }
      return v.reply.type('text/plain; charset=utf-8').send(lines.join('\n') + '\n');
    },
    'llms-full.txt': async (v) => {
      const pages = await everyPage(v);
      const parts: string[] = [];
      for (const p of pages) parts.push(`# ${p.page.title}\n\nSource: ${p.url}\n\n${await pageMarkdown(p.spaceId, p.revision, p.page.id, v.req.id)}`);
      return v.reply.type('text/plain; charset=utf-8').send(parts.join('\n\n---\n\n') + '\n');
    },
    '~search': async (v) => {
      const raw = (v.req.query as Record<string, unknown>).q;
      const query = typeof raw === 'string' ? raw.trim().slice(0, MAX_QUERY) : '';
      const results = query ? await search(v, query) : undefined;
      if ((v.req.headers.accept ?? '').includes('application/json')) return v.reply.header('cache-control', 'no-store').send({ items: results ?? [] });
      const placement = place(v.view.structure!, []);
      if (!placement) return notFound(v.reply, 'This site has no content yet.');
      const { chrome } = await spaceOf(v, placement);
      return html(v.reply, 200, searchPage({ ...metaOf(v, 'Search', `${v.at.base}/~search`), noindex: true }, chrome, query, results));
    },
    '~files': async (v, rest) => {
      const [siteSpaceId, fileId] = rest;
      const siteSpace = allSiteSpaces(v.view.structure!).find((s) => s.siteSpace.id === siteSpaceId)?.siteSpace;
      const file = siteSpace && fileId ? (await data.revision(siteSpace.spaceId, v.req.id)).files.find((f) => f.id === fileId) : undefined;
      if (!file) return notFound(v.reply, 'No such file.');
      const bytes = await data.blob(file.blob, v.req.id);
      // Only raster images show inline; anything else (SVG, HTML, PDF…) downloads, in a sandbox.
      const inline = INLINE_IMAGE.test(file.contentType);
      return v.reply
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('cache-control', 'private, max-age=3600')
        .type(inline ? file.contentType : 'application/octet-stream')
        .send(Buffer.from(bytes));
    },
  };

  app.get('/*', async (req, reply) => {
    // req.host: the Host a trusted proxy forwarded (X-Forwarded-Host), else the request's own, as the origin of `visit` reads it.
    const at = locate(req.host, req.url.split('?')[0]!, readerHosts, mount);
    if (!at) return notFound(reply);
    const v = await visit(req, reply, at);
    if (!v) return reply;
    const special = at.rest[0] !== undefined ? SPECIAL[at.rest[0]] : undefined;
    if (special && (at.rest.length === 1 || at.rest[0]!.startsWith('~'))) return special(v, at.rest.slice(1));
    const placement = place(v.view.structure!, at.rest);
    if (!placement) return notFound(reply, 'This site has no content yet.');
    return readPage(v, placement);
  });

  app.setNotFoundHandler((_req, reply) => notFound(reply));
  app.setErrorHandler((err, req, reply) => {
    req.log.error({ err }, 'reader failed');
    reply.header('cache-control', 'no-store');
    return html(reply, 503, messagePage({ status: 503, title: 'Temporarily unavailable', message: 'This page could not be shown just now. Try again in a moment.' }));
  });

  return { app, insights, flushInsights: () => insights.flush(), rendered };
}
