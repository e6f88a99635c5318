import { randomUUID } from 'node:crypto';
import type { insightsQueue } from '../domain/insights-queue.ts';
import type { Visit } from './visit.ts';

const VISITOR_COOKIE = 'quire_vid';
const SESSION_COOKIE = 'quire_sid';
const SESSION_SECONDS = 30 * 60;

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

export type Track = ReturnType<typeof tracker>;

/** Records a visitor's event (a page view, a search) in the insights queue. */
export function tracker(insights: ReturnType<typeof insightsQueue>) {
  return function track(
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
  };
}
