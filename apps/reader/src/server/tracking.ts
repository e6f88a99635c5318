import { createHash, randomUUID } from 'node:crypto';
import type { insightsQueue } from '../domain/insights-queue.ts';
import type { Visit } from './visit.ts';

const VISITOR_COOKIE = 'quire_vid';
const SESSION_COOKIE = 'quire_sid';
const SESSION_SECONDS = 30 * 60;

/** Where an event comes from: a visitor's browser, or an AI assistant calling the site's MCP server. */
export type Origin = 'web' | 'mcp';

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);

/**
 * The visitor and session ids: cookies kept by the browser. An assistant keeps no cookies (each
 * MCP call stands alone), so its ids are derived from its address, user agent and claims, and
 * its session from the half hour: its calls count as one visitor, not one per call.
 */
function ids(v: Visit, origin: Origin) {
  if (origin === 'mcp') {
    const visitorId = digest(v.req.ip, v.req.headers['user-agent'] ?? '', v.view.claimsJson);
    return { visitorId, sessionId: digest(visitorId, String(Math.floor(Date.now() / (SESSION_SECONDS * 1000)))) };
  }
  const secure = v.req.protocol === 'https';
  const visitorId = v.req.cookies[VISITOR_COOKIE] ?? randomUUID();
  const sessionId = v.req.cookies[SESSION_COOKIE] ?? randomUUID();
  v.reply.setCookie(VISITOR_COOKIE, visitorId, { path: '/', maxAge: 365 * 86400, sameSite: 'lax', httpOnly: true, secure });
  v.reply.setCookie(SESSION_COOKIE, sessionId, { path: '/', maxAge: SESSION_SECONDS, sameSite: 'lax', httpOnly: true, secure });
  return { visitorId, sessionId };
}

/** The event's session part. */
function session(v: Visit, origin: Origin) {
  const { visitorId, sessionId } = ids(v, origin);
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

export type Track = ReturnType<typeof tracker>;

/**
 * Records a visitor's event (a page view, a search) in the insights queue. `location.url` is the
 * page read where the request's own URL is not it (an MCP call); an assistant's events carry
 * `origin: 'mcp'`, which insights keeps beside GitBook's fields (its `eventOrigin` column).
 */
export function tracker(insights: ReturnType<typeof insightsQueue>) {
  return function track(
    v: Visit,
    type: string,
    location: { url?: string; section?: string; siteSpace?: string; space?: string; revision?: string; page?: string },
    extra: Record<string, unknown> = {},
    origin: Origin = 'web',
  ) {
    const site = v.view.site!;
    insights.push({
      organizationId: site.organizationId,
      siteId: site.id,
      clientIp: v.req.ip,
      event: {
        type,
        timestamp: new Date().toISOString(),
        session: session(v, origin),
        location: {
          url: (location.url ?? `${v.origin}${v.req.url}`).slice(0, 2048),
          siteSection: location.section ?? null,
          siteSpace: location.siteSpace ?? null,
          siteShareKey: null,
          space: location.space ?? null,
          revision: location.revision ?? null,
          page: location.page ?? null,
        },
        ...extra,
        ...(origin === 'mcp' ? { origin } : {}),
      },
    });
  };
}
