import { status } from '@grpc/grpc-js';
import type { AggregateEventsRequest } from '@quire/proto/insights';
import { Role } from '@quire/policy';
import { rejects } from '@quire/service-kit/testing/expect';
import { stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, hoursAgo, SAFARI_IPHONE, track } from './fixtures.ts';
import { startInsights, type InsightsHarness } from './harness.ts';

const SERVER = process.env.CLICKHOUSE_URL;

// The same contract on the embedded engine and, when CLICKHOUSE_URL names one, on a server.
describe('on embedded ClickHouse (chdb)', () => contract({}));
describe.skipIf(!SERVER)(`on a ClickHouse server (${SERVER ? SERVER : 'skipped: CLICKHOUSE_URL is not set'})`, () => contract({ CLICKHOUSE_URL: SERVER ?? '' }));

function contract(env: Record<string, string>) {
  let orgs: OrgsHarness;
  let h: InsightsHarness;
  let owner: TestUser, reader: TestUser, outsider: TestUser;
  let orgId: string, otherOrgId: string;
  const site = 'site-main';
  // The service's clock is fixed: ranges and buckets are then the same on every run.
  const NOW = new Date(Math.floor(Date.now() / 3600_000) * 3600_000 + 30 * 60_000);

  /** An aggregation as `userId` over the main site, defaults filled. */
  const aggregate = (q: Partial<AggregateEventsRequest>, userId = reader.id) =>
    h.call(h.client.aggregateEvents, { organizationId: orgId, siteId: site, select: [], where: [], groupBy: [], range: { preset: 'last30Days' }, limit: 0, ...q }, userId);

  beforeAll(async () => {
    orgs = await startOrgs();
    h = await startInsights(orgs.address, env);
    h.clock.now = () => NOW;
    ({ owner, reader, outsider, orgId, otherOrgId } = await team(orgs, { reader: Role.ROLE_READ }));

    // Three visitors over two days; one on an iPhone, two signed in with claims.
    const events = [
      event({ visitorId: 'v1', sessionId: 's1', timestamp: hoursAgo(NOW, 1), page: 'p1', claims: { plan: 'pro', admin: true } }),
      event({ visitorId: 'v1', sessionId: 's1', timestamp: hoursAgo(NOW, 1), page: 'p2', claims: { plan: 'pro', admin: true } }),
      event({ visitorId: 'v1', sessionId: 's2', timestamp: hoursAgo(NOW, 2), page: 'p1', claims: { admin: true, plan: 'pro' } }),
      event({ visitorId: 'v2', sessionId: 's3', timestamp: hoursAgo(NOW, 1), page: 'p1', userAgent: SAFARI_IPHONE, url: 'https://docs.example.com/start?utm_source=news' }),
      event({ visitorId: 'v3', sessionId: 's4', timestamp: hoursAgo(NOW, 25), page: 'p3', claims: { plan: 'free' } }),
      event({ visitorId: 'v3', sessionId: 's4', timestamp: hoursAgo(NOW, 25), type: 'search_type_query', page: null, space: null, extra: { query: 'install' } }),
      event({ visitorId: 'v3', sessionId: 's4', timestamp: hoursAgo(NOW, 25), type: 'page_post_feedback', extra: { feedback: { rating: 'good' } } }),
      // Outside every range below but lastYear.
      event({ visitorId: 'v9', sessionId: 's9', timestamp: hoursAgo(NOW, 24 * 100) }),
    ];
    await expect(track(h, owner.id, orgId, site, events)).resolves.toEqual({ count: events.length });
    // The same site id in another organization is another site.
    await track(h, outsider.id, otherOrgId, site, [event({ visitorId: 'x1' })]);
    expect(await h.stored(orgId, site, events.length)).toBe(events.length);
    expect(await h.stored(otherOrgId, site, 1)).toBe(1);
  });
  afterAll(() => stopAll(h, orgs));

  describe('TrackEvents', () => {
    it('accepts a batch of any member once JetStream has it, and refuses others', async () => {
      await expect(track(h, reader.id, orgId, 'site-reader', [event()])).resolves.toEqual({ count: 1 });
      await rejects(track(h, outsider.id, orgId, site, [event()]), status.NOT_FOUND, /Site "site-main" not found/);
      await rejects(track(h, undefined, orgId, site, [event()]), status.UNAUTHENTICATED);
      expect(await h.stored(orgId, 'site-reader', 1)).toBe(1);
    });

    it('refuses a bad batch whole, naming the field', async () => {
      const bad: [unknown[], RegExp][] = [
        [[event(), { ...event(), session: { ...event().session, visitorId: undefined } }], /events\[1\]\.session\.visitorId/],
        [[event({ type: 'page_explode' })], /events\[0\]\.type: unknown event type "page_explode"/],
        [[event({ url: 'not a url' })], /events\[0\]\.location\.url/],
        [[event({ timestamp: 'yesterday' })], /events\[0\]\.timestamp/],
        [[event({ timestamp: new Date(NOW.getTime() + 3 * 3600_000).toISOString() })], /events\[0\]\.timestamp: must not be in the future/],
        [[event({ type: 'search_type_query' })], /events\[0\]\.query/],
        [[event({ type: 'page_post_feedback', extra: { feedback: { rating: 'meh' } } })], /events\[0\]\.feedback\.rating/],
        [[{ ...event(), session: { ...event().session, ip: 'home' } }], /events\[0\]\.session\.ip/],
        [Array.from({ length: 1001 }, () => event()), /events: at most 1000/],
      ];
      for (const [events, message] of bad) await rejects(track(h, owner.id, orgId, 'site-bad', events), status.INVALID_ARGUMENT, message);
      const raw = (body: string) => h.call(h.client.trackEvents, { organizationId: orgId, siteId: 'site-bad', bodyJson: Buffer.from(body), clientIp: '' }, owner.id);
      await rejects(raw('{"nope'), status.INVALID_ARGUMENT, /body: must be JSON/);
      await rejects(raw('[]'), status.INVALID_ARGUMENT, /body: must be an object/);
      await rejects(raw('{}'), status.INVALID_ARGUMENT, /events: required/);
      await rejects(raw('{"events":{}}'), status.INVALID_ARGUMENT, /events: must be an array/);
      expect(await h.store.count(orgId, 'site-bad')).toBe(0);
    });
  });

  describe('AggregateEvents', () => {
    it('counts events by hour', async () => {
      const res = await aggregate({
        select: [{ column: 'datetime', interval: 'hour' }, { column: 'eventsCount' }],
        groupBy: [{ column: 'datetime', interval: 'hour' }],
        order: { by: { column: 'datetime', interval: 'hour' }, direction: 'asc' },
        range: { preset: 'last7Days' },
      });
      const hour = (n: number) => new Date(Math.floor((NOW.getTime() - n * 3600_000) / 3600_000) * 3600_000).toISOString();
      expect(res.columns).toEqual([
        { column: 'datetime', values: [hour(25), hour(2), hour(1)] },
        { column: 'eventsCount', values: [3, 1, 3] },
      ]);
    });

    it('counts unique visitors and sessions by day, and applies the range', async () => {
      const total = await aggregate({ select: [{ column: 'visitorsCount' }, { column: 'sessionsCount' }, { column: 'eventsCount' }], range: { preset: 'last30Days' } });
      expect(total.columns.map((c) => c.values)).toEqual([[3], [4], [7]]);
      const year = await aggregate({ select: [{ column: 'eventsCount' }], range: { preset: 'lastYear' } });
      expect(year.columns[0]!.values).toEqual([8]);
      const custom = await aggregate({ select: [{ column: 'eventsCount' }], range: { custom: { from: new Date(hoursAgo(NOW, 3)), to: NOW } } });
      expect(custom.columns[0]!.values).toEqual([4]);
      const byDay = await aggregate({ select: [{ column: 'datetime', interval: 'day' }, { column: 'visitorsCount' }], groupBy: [{ column: 'datetime', interval: 'day' }] });
      expect(byDay.columns[1]!.values!.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThanOrEqual(3);
    });

    it('ranks top pages and filters, including on counts', async () => {
      const top = await aggregate({
        select: [{ column: 'page' }, { column: 'eventsCount' }],
        groupBy: [{ column: 'page' }],
        where: [{ column: { column: 'eventType' }, values: ['page_view'] }],
        order: { by: { column: 'eventsCount' }, direction: 'desc' },
        limit: 2,
      });
      expect(top.columns).toEqual([
        { column: 'page', values: [{ page: 'p1', space: 'space-1' }, expect.objectContaining({ space: 'space-1' })] },
        { column: 'eventsCount', values: [3, 1] },
      ]);
      const busy = await aggregate({
        select: [{ column: 'page' }],
        groupBy: [{ column: 'page' }],
        where: [{ column: { column: 'eventsCount' }, operator: 'greaterThanOrEqual', values: [2] }],
      });
      expect(busy.columns[0]!.values).toEqual([{ page: 'p1', space: 'space-1' }]);
      const notP1 = await aggregate({
        select: [{ column: 'eventsCount' }],
        where: [{ column: { column: 'page' }, operator: 'notIn', values: [{ page: 'p1', space: 'space-1' }, null] }],
      });
      expect(notP1.columns[0]!.values).toEqual([3]);
    });

    it("reads the visitor, its claims and the events' own fields", async () => {
      const devices = await aggregate({ select: [{ column: 'visitorDevice' }, { column: 'visitorsCount' }], groupBy: [{ column: 'visitorDevice' }] });
      expect(devices.columns).toEqual([
        { column: 'visitorDevice', values: ['desktop', 'mobile'] },
        { column: 'visitorsCount', values: [2, 1] },
      ]);
      const plans = await aggregate({
        select: [{ column: 'visitorClaim', claim: 'plan' }, { column: 'eventsCount' }],
        groupBy: [{ column: 'visitorClaim', claim: 'plan' }],
        where: [{ column: { column: 'visitorClaim', claim: 'plan' }, values: ['pro', 'free'] }],
      });
      expect(plans.columns).toEqual([
        { column: 'visitorClaim', claim: 'plan', values: ['free', 'pro'] },
        { column: 'eventsCount', values: [1, 3] },
      ]);
      const misc = await aggregate({
        select: [{ column: 'eventSearchQuery' }, { column: 'utmSource' }, { column: 'pageFeedbackRating' }],
        groupBy: [{ column: 'eventSearchQuery' }, { column: 'utmSource' }],
        where: [{ column: { column: 'eventType' }, operator: 'notIn', values: ['page_view'] }],
      });
      expect(misc.columns).toEqual([
        { column: 'eventSearchQuery', values: ['', 'install'] },
        { column: 'utmSource', values: ['', ''] },
        {
          column: 'pageFeedbackRating',
          values: [
            { ok: 0, good: 1, bad: 0 },
            { ok: 0, good: 0, bad: 0 },
          ],
        },
      ]);
    });

    it('keeps each organization to its own events', async () => {
      const mine = await aggregate({ select: [{ column: 'eventsCount' }], range: { preset: 'last24Hours' } }, outsider.id).catch((e: unknown) => e);
      expect(mine).toMatchObject({ code: status.NOT_FOUND });
      const theirs = await h.call(
        h.client.aggregateEvents,
        { organizationId: otherOrgId, siteId: site, select: [{ column: 'visitorsCount' }], where: [], groupBy: [], range: { preset: 'last24Hours' }, limit: 0 },
        outsider.id,
      );
      expect(theirs.columns[0]!.values).toEqual([1]);
    });

    it('names the unknown column, interval, operator or range, and refuses what cannot be compiled', async () => {
      const cases: [Partial<AggregateEventsRequest>, RegExp][] = [
        [{ select: [{ column: 'salary' }] }, /select\[0\]\.column: unknown column "salary"/],
        [
          { select: [{ column: 'datetime', interval: 'fortnight' }], groupBy: [{ column: 'datetime', interval: 'fortnight' }] },
          /select\[0\]\.interval: unknown interval "fortnight"/,
        ],
        [{ select: [{ column: 'eventsCount' }], where: [{ column: { column: 'url' }, operator: 'like', values: ['x'] }] }, /where\[0\]\.operator: unknown operator "like"/],
        [{ select: [{ column: 'eventsCount' }], range: { preset: 'lastDecade' } }, /range: unknown range "lastDecade"/],
        [{ select: [{ column: 'eventsCount' }], range: { custom: { from: NOW, to: new Date(hoursAgo(NOW, 1)) } } }, /range: from must be before to/],
        [{ select: [{ column: 'eventsCount' }], range: {} }, /range: required/],
        [{ select: [{ column: 'url' }] }, /select\[0\]\.column: "url" must also be in groupBy/],
        [{ select: [{ column: 'eventsCount' }], groupBy: [{ column: 'visitorsCount' }] }, /groupBy\[0\]\.column: "visitorsCount" is a count/],
        [{ select: [{ column: 'eventsCount' }], where: [{ column: { column: 'eventType' }, values: ['page_explode'] }] }, /where\[0\]\.values\[0\]: must be one of/],
        [{ select: [{ column: 'eventsCount' }], where: [{ column: { column: 'eventsCount' }, operator: 'greaterThan', values: [1, 2] }] }, /where\[0\]\.values: exactly one value/],
        [{ select: [{ column: 'eventsCount' }], where: [{ column: { column: 'url' }, values: [] }] }, /where\[0\]\.values: 1\.\.1000/],
        [{ select: [{ column: 'visitorClaim' }], groupBy: [{ column: 'visitorClaim' }] }, /select\[0\]\.claim: required/],
        [{ select: [{ column: 'eventsCount' }], limit: 1001 }, /limit: an integer 1\.\.1000/],
        [{ select: [] }, /select: at least one column/],
        [{ select: [{ column: 'eventsCount' }], order: { by: { column: 'eventsCount' }, direction: 'sideways' } }, /order\.direction/],
      ];
      for (const [q, message] of cases) await rejects(aggregate(q), status.INVALID_ARGUMENT, message);
    });

    it('binds every value, so a value is never SQL', async () => {
      const res = await aggregate({
        select: [{ column: 'eventsCount' }],
        where: [{ column: { column: 'visitorClaim', claim: "plan') OR 1=1 --" }, values: ["x' OR '1'='1"] }],
      });
      expect(res.columns[0]!.values).toEqual([0]);
    });
  });

  describe('ListVisitorSegments', () => {
    it('groups visitors by their claims, with events, visitors and sessions', async () => {
      const { items } = await h.call(h.client.listVisitorSegments, { organizationId: orgId, siteId: site }, reader.id);
      expect(items).toEqual([
        { title: 'Anonymous visitors', claims: {}, events: 4, visitors: 3, sessions: 3 },
        { title: 'admin: true, plan: pro', claims: { admin: true, plan: 'pro' }, events: 3, visitors: 1, sessions: 2 },
        { title: 'plan: free', claims: { plan: 'free' }, events: 1, visitors: 1, sessions: 1 },
      ]);
      await rejects(h.call(h.client.listVisitorSegments, { organizationId: orgId, siteId: site }, outsider.id), status.NOT_FOUND);
    });
  });
}
