import type { InsightsHarness } from './harness.ts';

export const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

export interface EventInput {
  type?: string;
  visitorId?: string;
  sessionId?: string;
  timestamp?: string;
  page?: string | null;
  space?: string | null;
  url?: string;
  userAgent?: string;
  claims?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** One SiteInsightsEvent as the API takes it. */
export function event(e: EventInput = {}) {
  return {
    type: e.type ?? 'page_view',
    ...(e.timestamp ? { timestamp: e.timestamp } : {}),
    session: {
      visitorId: e.visitorId ?? 'visitor-1',
      sessionId: e.sessionId ?? 'session-1',
      cookies: {},
      userAgent: e.userAgent ?? CHROME_MAC,
      language: 'en',
      referrer: null,
      ...(e.claims ? { visitorAuthClaims: e.claims } : {}),
    },
    location: {
      url: e.url ?? 'https://docs.example.com/start',
      siteSection: null,
      siteSpace: 'sitesp_1',
      siteShareKey: null,
      space: e.space === undefined ? 'space-1' : e.space,
      revision: 'rev-1',
      page: e.page === undefined ? 'page-1' : e.page,
    },
    ...e.extra,
  };
}

/** TrackEvents as `userId`. */
export function track(h: InsightsHarness, userId: string | undefined, organizationId: string, siteId: string, events: unknown[]) {
  return h.call(h.client.trackEvents, { organizationId, siteId, bodyJson: Buffer.from(JSON.stringify({ events })), clientIp: '203.0.113.7' }, userId);
}

/** An ISO time `hours` before `now`. */
export const hoursAgo = (now: Date, hours: number) => new Date(now.getTime() - hours * 3600_000).toISOString();
