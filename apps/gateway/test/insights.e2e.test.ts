import { GitBookAPI, SiteInsightsQueryRangePreset } from '@gitbook/api';
import { describe, expect } from 'vitest';
import type { TestUser } from '@quire/orgs/testing';
import { expectError, ok } from './harness.ts';
import { test } from './fixtures.ts';

// Each test in an organization of its own (fixtures.ts): the counts are its events alone.

const SITE = 'site_docs';
const base = (org: string, site = SITE) => `/v1/orgs/${org}/sites/${site}/insights`;

function event(visitorId: string, over: Record<string, unknown> = {}) {
  return {
    type: 'page_view',
    session: {
      visitorId,
      sessionId: `${visitorId}-s`,
      cookies: {},
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Chrome/126.0 Safari/537.36',
      language: 'en',
      referrer: null,
      visitorAuthClaims: visitorId.startsWith('pro') ? { plan: 'pro' } : {},
    },
    location: { url: 'https://docs.example.com/start', siteSection: null, siteSpace: null, siteShareKey: null, space: 'space1', revision: 'rev1', page: 'page1' },
    ...over,
  };
}

const countEvents = { select: [{ column: 'eventsCount' }], range: 'last24Hours' };

// What the owner and the reader send in the first test: three page views and a search, by three visitors.
const OWNER_EVENTS = [event('pro-1'), event('anon-1'), event('anon-1', { type: 'search_type_query', query: 'setup' })];
const READER_EVENTS = [event('pro-2')];

const it = test.extend<{
  /** Aggregates the team's count of events until it reaches `n` (the consumer writes shortly after the 204). */
  eventsCount: (as: TestUser, n: number, site?: string) => Promise<number>;
  /** The insights of the team's SITE, with the first test's four events stored. */
  visited: string;
}>({
  eventsCount: async ({ g, team: { orgId } }, use) =>
    use(async (as, n, site = SITE) => {
      for (let i = 0; ; i++) {
        const res = await g.call(as, 'POST', `${base(orgId, site)}/events/aggregate`, countEvents);
        expect(res.statusCode, res.body).toBe(200);
        const count = res.json<{ columns: { values: number[] }[] }>().columns[0]!.values[0]!;
        if (count >= n || i > 100) return count;
        await new Promise((r) => setTimeout(r, 100));
      }
    }),
  visited: async ({ g, team: { owner, reader, orgId }, eventsCount }, use) => {
    await ok(g.call(owner, 'POST', `${base(orgId)}/events`, { events: OWNER_EVENTS }), 204);
    await ok(g.call(reader, 'POST', `${base(orgId)}/events`, { events: READER_EVENTS }), 204);
    expect(await eventsCount(owner, 4)).toBe(4);
    await use(base(orgId));
  },
});

describe('POST .../insights/events', () => {
  it('answers 204 to any member and stores the events', async ({ g, team: { owner, reader, orgId }, eventsCount }) => {
    const res = await g.call(owner, 'POST', `${base(orgId)}/events`, { events: OWNER_EVENTS });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await g.call(reader, 'POST', `${base(orgId)}/events`, { events: READER_EVENTS })).statusCode).toBe(204);
    expect(await eventsCount(reader, 4)).toBe(4);
  });

  it('refuses bad batches with 400 naming the field, and stores none of them', async ({ g, team: { owner, orgId }, eventsCount }) => {
    const site = 'site_bad';
    const cases: [unknown, RegExp][] = [
      [{}, /events/],
      [{ events: 'many' }, /events/],
      [{ events: [event('a', { type: 'teleport' })] }, /events\[0\]\.type: unknown event type "teleport"/],
      [{ events: [event('a', { type: 'page_post_feedback', feedback: { rating: 'great' } })] }, /events\[0\]\.feedback\.rating/],
      [{ events: [event('a'), { ...event('b'), session: { visitorId: 'b' } }] }, /sessionId|session/],
      [{ events: [event('a', { timestamp: 'last tuesday' })] }, /timestamp/],
      [{ events: [event('a', { location: { ...event('a').location, url: 'not a url' } })] }, /url/],
      [{ events: Array.from({ length: 1001 }, () => event('a')) }, /events/],
    ];
    for (const [body, message] of cases) expectError(await g.call(owner, 'POST', `${base(orgId, site)}/events`, body), 400, message);
    expect(await eventsCount(owner, 0, site)).toBe(0);
  });

  it("refuses a member's batch passing events off as an AI assistant's (origin mcp), which only the reader's MCP server records", async ({
    g,
    team: { owner, orgId },
    eventsCount,
  }) => {
    const site = 'site_forged';
    const forged = event('a', { type: 'search_type_query', query: 'pricing', origin: 'mcp', tool: 'searchDocumentation', found: false });
    expectError(
      await g.call(owner, 'POST', `${base(orgId, site)}/events`, { events: [event('a'), forged] }),
      400,
      /events\[1\]\.origin: "mcp" is recorded by the site's MCP server only/,
    );
    const toolOnly = event('a', { type: 'search_type_query', query: 'pricing', tool: 'searchDocumentation', found: true });
    expectError(await g.call(owner, 'POST', `${base(orgId, site)}/events`, { events: [toolOnly] }), 400, /events\[0\]\.tool: only an assistant's event/);
    // A visitor's event says so, or nothing.
    await ok(g.call(owner, 'POST', `${base(orgId, site)}/events`, { events: [event('b', { origin: 'web' })] }), 204);
    expect(await eventsCount(owner, 1, site)).toBe(1);
    const mcp = await g.call(owner, 'POST', `${base(orgId, site)}/events/aggregate`, { ...countEvents, where: [{ column: 'eventOrigin', values: ['mcp'] }] });
    expect(mcp.json()).toEqual({ columns: [{ column: 'eventsCount', values: [0] }] });
  });

  it('is 404 outside the organization and 401 without a token', async ({ g, team: { owner, outsider, orgId } }) => {
    expectError(await g.call(outsider, 'POST', `${base(orgId)}/events`, { events: [event('x')] }), 404, /not found/);
    expectError(await g.call(null, 'POST', `${base(orgId)}/events`, { events: [event('x')] }), 401);
    expectError(await g.call(owner, 'POST', `${base('bad.id')}/events`, { events: [] }), 400, /organizationId/);
  });
});

describe('POST .../insights/events/aggregate', () => {
  it('counts by hour, unique visitors, and ranks pages', async ({ g, team: { owner, reader }, visited }) => {
    const byHour = await g.call(reader, 'POST', `${visited}/events/aggregate`, {
      select: [{ column: 'datetime', interval: 'hour' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
      groupBy: [{ column: 'datetime', interval: 'hour' }],
      order: { by: { column: 'datetime', interval: 'hour' }, direction: 'asc' },
      range: 'lastYear',
    });
    expect(byHour.statusCode, byHour.body).toBe(200);
    const columns = byHour.json<{ columns: { column: string; values: unknown[] }[] }>().columns;
    expect(columns.map((c) => c.column)).toEqual(['datetime', 'eventsCount', 'visitorsCount']);
    expect(columns[0]!.values.every((v) => typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/.test(v))).toBe(true);
    expect((columns[1]!.values as number[]).reduce((a, b) => a + b, 0)).toBe(4);

    const pages = await g.call(owner, 'POST', `${visited}/events/aggregate`, {
      select: [{ column: 'page' }, { column: 'eventsCount' }],
      where: [
        { column: 'eventType', values: ['page_view'] },
        { column: 'visitorClaim', claim: 'plan', operator: 'notIn', values: ['enterprise'] },
      ],
      groupBy: [{ column: 'page' }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      range: { from: new Date(Date.now() - 3600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() },
      limit: 5,
    });
    expect(pages.json()).toEqual({
      columns: [
        { column: 'page', values: [{ page: 'page1', space: 'space1' }] },
        { column: 'eventsCount', values: [3] },
      ],
    });
  });

  it('names what it does not know in a 400', async ({ g, team: { owner, orgId } }) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ select: [{ column: 'salary' }], range: 'last7Days' }, /select\[0\]\.column: unknown column "salary"/],
      [{ select: [{ column: 'datetime', interval: 'decade' }], groupBy: [{ column: 'datetime', interval: 'decade' }], range: 'last7Days' }, /unknown interval "decade"/],
      [
        { select: [{ column: 'eventsCount' }], where: [{ column: 'url', operator: 'matches', values: ['x'] }], range: 'last7Days' },
        /where\[0\]\.operator: unknown operator "matches"/,
      ],
      [{ select: [{ column: 'eventsCount' }], range: 'lastCentury' }, /range: unknown range "lastCentury"/],
      [{ select: [{ column: 'eventsCount' }] }, /range/],
      [{ select: [{ column: 'eventsCount' }], range: 'last7Days', limit: 0 }, /limit/],
      [{ select: [{ column: 'eventsCount' }], range: 'last7Days', limit: 1001 }, /limit/],
      [{ select: [{ column: 'eventsCount' }], range: { from: 'yesterday', to: 'today' } }, /range/],
      [{ select: [{ column: 'eventsCount' }], range: 'last7Days', order: { by: { column: 'eventsCount' }, direction: 'up' } }, /direction/],
    ];
    for (const [body, message] of cases) expectError(await g.call(owner, 'POST', `${base(orgId)}/events/aggregate`, body), 400, message);
  });

  it('is 404 outside the organization and 401 without a token', async ({ g, team: { outsider, orgId, otherOrgId } }) => {
    expectError(await g.call(outsider, 'POST', `${base(orgId)}/events/aggregate`, countEvents), 404);
    expectError(await g.call(null, 'POST', `${base(orgId)}/events/aggregate`, countEvents), 401);
    // The outsider's own organization has a site of the same id, with none of these events.
    const theirs = await g.call(outsider, 'POST', `${base(otherOrgId)}/events/aggregate`, countEvents);
    expect(theirs.json()).toEqual({ columns: [{ column: 'eventsCount', values: [0] }] });
  });
});

describe('GET .../insights/visitor-segments', () => {
  it('lists visitors grouped by claims', async ({ g, team: { reader, outsider }, visited }) => {
    const res = await g.call(reader, 'GET', `${visited}/visitor-segments`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      count: 2,
      items: [
        { title: 'plan: pro', claims: { plan: 'pro' }, events: 2, visitors: 2, sessions: 2 },
        { title: 'Anonymous visitors', claims: {}, events: 2, visitors: 1, sessions: 1 },
      ],
    });
    expectError(await g.call(outsider, 'GET', `${visited}/visitor-segments`), 404);
    expectError(await g.call(null, 'GET', `${visited}/visitor-segments`), 401);
  });
});

describe('@gitbook/api 0.130.0', () => {
  it('tracks, aggregates and lists segments through the official client', async ({ team: { owner, orgId }, eventsCount, origin }) => {
    const api = new GitBookAPI({ endpoint: origin, authToken: owner.token });
    const site = 'site_client';
    const tracked = await api.orgs.trackEventsInSiteById(orgId, site, { events: [event('pro-9') as never] });
    expect(tracked.status).toBe(204);
    expect(await eventsCount(owner, 1, site)).toBe(1);
    const { data } = await api.orgs.aggregateSiteEvents(orgId, site, { select: [{ column: 'visitorsCount' }], range: SiteInsightsQueryRangePreset.Last24Hours });
    expect(data).toEqual({ columns: [{ column: 'visitorsCount', values: [1] }] });
    const { data: segments } = await api.orgs.listSiteVisitorSegments(orgId, site);
    expect(segments.items).toEqual([{ title: 'plan: pro', claims: { plan: 'pro' }, events: 1, visitors: 1, sessions: 1 }]);
  });
});
