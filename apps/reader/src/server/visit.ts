import type { FastifyReply, FastifyRequest } from 'fastify';
import { SITE_MEMBER_GRANT_SECONDS } from '@quire/service-kit';
import type { Located } from '../domain/address.ts';
import { MEMBER_COOKIE, MEMBER_PARAM, refusal, SHARE_COOKIE, SHARE_PARAM, TOKEN_COOKIE, TOKEN_PARAM, type Refusal } from '../domain/access.ts';
import { messagePage } from '../presenters/views/layout.ts';
import { html, notFound } from './respond.ts';
import type { SiteData, SiteView } from './site-data.ts';

/** A request let in to a site: what every route of a site is given. */
export interface Visit {
  req: FastifyRequest;
  reply: FastifyReply;
  at: Located;
  view: SiteView;
  /** Absolute origin of the site's pages (`https://docs.example.com` or the reader's URL). */
  origin: string;
}

/** A route of a site, below its base: `rest` is the path after the route's own segment. */
export type SiteRoute = (v: Visit, rest: string[]) => Promise<unknown>;

interface VisitOptions {
  data: SiteData;
  readerUrl: URL;
  /** The name of the gateway's sign-in session cookie. */
  sessionCookie: string;
  /** The gateway's page that sends a signed-in member back with a grant. */
  siteAccess: string;
}

/** How a route that is not a page takes credentials and answers a refusal (the MCP server). */
export interface VisitManner {
  /** A visitor token may come as `Authorization: Bearer` (an assistant has no cookies). */
  bearer?: boolean;
  /** Answers a refusal instead of the refusal page or redirect. */
  refuse?: (reply: FastifyReply, refused: Refusal) => unknown;
}

const bearerOf = (req: FastifyRequest) => /^Bearer (\S{1,8192})$/i.exec(req.headers.authorization ?? '')?.[1];

/** Credentials from the query (then kept in a cookie scoped to the site) or from that cookie. */
function proof(req: FastifyRequest, reply: FastifyReply, at: Located, sessionCookie: string, manner: VisitManner) {
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
    visitorToken: take(TOKEN_PARAM, TOKEN_COOKIE) ?? (manner.bearer ? bearerOf(req) : undefined),
    memberSession: session && session.length <= 256 ? session : undefined,
    memberGrant,
  };
}

/** Finds the site of a request and lets the visitor in, or answers for it (404, refusal). */
export function visitor({ data, readerUrl, sessionCookie, siteAccess }: VisitOptions) {
  return async function visit(req: FastifyRequest, reply: FastifyReply, at: Located, manner: VisitManner = {}): Promise<Visit | undefined> {
    const creds = proof(req, reply, at, sessionCookie, manner);
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
      if (manner.refuse) manner.refuse(reply, refused);
      else if (refused.kind === 'redirect') reply.redirect(refused.location, 302);
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
  };
}
