import { describe, expect, it } from 'vitest';
import { compileAggregation, type Aggregation } from './query.ts';

const scope = { organizationId: 'org1', siteId: 'site1' };
const NOW = new Date('2026-11-22T12:00:00.000Z');
const q = (over: Partial<Aggregation>): Aggregation => ({ select: [{ column: 'eventsCount' }], where: [], groupBy: [], range: { preset: 'last30Days' }, limit: 0, ...over });

describe('compileAggregation', () => {
  it('counts by hour within a preset range, scoped to the site, with every value a parameter', () => {
    const c = compileAggregation(
      q({
        select: [{ column: 'datetime', interval: 'hour' }, { column: 'eventsCount' }],
        groupBy: [{ column: 'datetime', interval: 'hour' }],
        order: { by: { column: 'datetime', interval: 'hour' }, direction: 'asc' },
      }),
      scope,
      NOW,
    );
    expect(c.sql).toBe(
      'SELECT toStartOfHour(timestamp) AS c0, count() AS c1 FROM events WHERE organization_id = {p0:String} AND site_id = {p1:String} ' +
        "AND toStartOfHour(timestamp) >= {p2:DateTime('UTC')} AND toStartOfHour(timestamp) <= {p3:DateTime('UTC')} GROUP BY toStartOfHour(timestamp) ORDER BY toStartOfHour(timestamp) ASC LIMIT {p4:UInt32}",
    );
    expect(c.params).toEqual({ p0: 'org1', p1: 'site1', p2: '2026-10-23 12:00:00', p3: '2026-11-22 12:00:00', p4: 1000 });
    expect(c.columns.map((x) => x.column)).toEqual(['datetime', 'eventsCount']);
    expect(c.columns[0]!.decode('2026-11-22 11:00:00')).toBe('2026-11-22T11:00:00.000Z');
  });

  it('filters dimensions in WHERE and counts in HAVING, binding values by their column type', () => {
    const c = compileAggregation(
      q({
        select: [{ column: 'url' }, { column: 'visitorsCount' }],
        groupBy: [{ column: 'url' }],
        where: [
          { column: { column: 'eventType' }, values: ['page_view', 'link_click'] },
          { column: { column: 'visitorsCount' }, operator: 'greaterThan', values: [10] },
          { column: { column: 'siteSection' }, operator: 'notIn', values: [null] },
        ],
        range: { custom: { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') } },
        limit: 10,
      }),
      scope,
      NOW,
    );
    expect(c.sql).toContain('AND event_type IN {p4:Array(String)} AND site_section NOT IN {p6:Array(String)} GROUP BY url HAVING uniqCombined(12)(visitor_id) > {p5:Float64}');
    expect(c.params).toMatchObject({ p2: '2026-01-01 00:00:00.000', p3: '2026-02-01 00:00:00.000', p4: ['page_view', 'link_click'], p5: 10, p6: [''], p7: 10 });
  });

  it("filters on an event's origin, a column of Quire's that no answer carries", () => {
    const c = compileAggregation(
      q({ select: [{ column: 'eventType' }, { column: 'eventsCount' }], groupBy: [{ column: 'eventType' }], where: [{ column: { column: 'eventOrigin' }, values: ['mcp'] }] }),
      scope,
      NOW,
    );
    expect(c.sql).toContain('AND origin IN {p4:Array(String)}');
    expect(c.params.p4).toEqual(['mcp']);
    expect(() => compileAggregation(q({ where: [{ column: { column: 'eventOrigin' }, values: ['bot'] }] }), scope, NOW)).toThrow('where[0].values[0]: must be one of web, mcp');
    for (const over of [
      { select: [{ column: 'eventOrigin' }, { column: 'eventsCount' }], groupBy: [{ column: 'eventOrigin' }] },
      { groupBy: [{ column: 'eventOrigin' }] },
      { order: { by: { column: 'eventOrigin' }, direction: 'asc' as const } },
    ])
      expect(() => compileAggregation(q(over), scope, NOW)).toThrow(/"eventOrigin" can only filter \(where\): answers carry GitBook's columns alone/);
  });

  it('binds a claim once for SELECT and GROUP BY, and never splices it', () => {
    const claim = "x') OR 1=1 --";
    const c = compileAggregation(q({ select: [{ column: 'visitorClaim', claim }, { column: 'eventsCount' }], groupBy: [{ column: 'visitorClaim', claim }] }), scope, NOW);
    expect(c.sql).not.toContain(claim);
    expect(Object.values(c.params).filter((v) => v === claim)).toHaveLength(1);
    expect(c.sql.match(/\{p4:String\}/g)).toHaveLength(9);
    expect(c.params.p4).toBe(claim);
    expect(c.columns[0]).toMatchObject({ column: 'visitorClaim', claim });
  });

  it('computes the preset ranges from now, in whole hours', () => {
    const later = new Date('2026-11-22T12:41:07.250Z');
    const bounds = (preset: string) => {
      const { params } = compileAggregation(q({ range: { preset } }), scope, later);
      return [params.p2, params.p3];
    };
    expect(bounds('lastYear')).toEqual(['2025-11-22 12:00:00', '2026-11-22 12:00:00']);
    expect(bounds('last3Months')).toEqual(['2026-08-22 12:00:00', '2026-11-22 12:00:00']);
    expect(bounds('last7Days')).toEqual(['2026-11-15 12:00:00', '2026-11-22 12:00:00']);
    expect(bounds('last24Hours')).toEqual(['2026-11-21 12:00:00', '2026-11-22 12:00:00']);
  });

  it('takes a custom range to the millisecond', () => {
    const c = compileAggregation(q({ range: { custom: { from: new Date('2026-01-01T00:00:00.5Z'), to: new Date('2026-02-01T00:00:00Z') } } }), scope, NOW);
    expect(c.sql).toContain("timestamp >= {p2:DateTime64(3, 'UTC')} AND timestamp <= {p3:DateTime64(3, 'UTC')}");
    expect([c.params.p2, c.params.p3]).toEqual(['2026-01-01 00:00:00.500', '2026-02-01 00:00:00.000']);
  });

  it('decodes pages, ratings and nullable columns to the API values', () => {
    const c = compileAggregation(
      q({
        select: [{ column: 'page' }, { column: 'siteSection' }, { column: 'pageFeedbackRating' }, { column: 'askResponseRating' }],
        groupBy: [{ column: 'page' }, { column: 'siteSection' }],
      }),
      scope,
      NOW,
    );
    const [page, section, feedback, ask] = c.columns.map((x) => x.decode);
    expect(page!(['p1', 's1'])).toEqual({ page: 'p1', space: 's1' });
    expect(page!(['', ''])).toBeNull();
    expect(section!('')).toBeNull();
    expect(feedback!(['1', '2', '3'])).toEqual({ ok: 1, good: 2, bad: 3 });
    expect(ask!([4, 5])).toEqual({ positive: 4, negative: 5 });
  });

  it.each([
    [q({ select: [{ column: 'nope' }] }), /select\[0\]\.column: unknown column "nope"/],
    [q({ select: [{ column: 'toString' }] }), /unknown column "toString"/],
    [q({ select: [{ column: 'url', interval: 'hour' }], groupBy: [{ column: 'url' }] }), /select\[0\]\.interval: only the datetime column/],
    [q({ groupBy: [{ column: 'datetime', interval: 'year' }] }), /groupBy\[0\]\.interval: unknown interval "year"/],
    [q({ where: [{ column: { column: 'url' }, operator: 'between', values: ['a'] }] }), /where\[0\]\.operator: unknown operator "between"/],
    [q({ where: [{ column: { column: 'visitorGeoPoint' }, values: [null] }] }), /where\[0\]\.column: "visitorGeoPoint" cannot be filtered on/],
    [q({ where: [{ column: { column: 'eventsCount' }, values: ['many'] }] }), /where\[0\]\.values\[0\]: must be a number/],
    [q({ where: [{ column: { column: 'datetime' }, operator: 'lessThan', values: ['soon'] }] }), /where\[0\]\.values\[0\]: must be an ISO 8601 date-time/],
    [q({ where: [{ column: { column: 'page' }, values: [{ page: 'p' }] }] }), /where\[0\]\.values\[0\]: must be null or \{page, space\}/],
    [q({ range: { preset: 'forever' } }), /range: unknown range "forever"/],
    [q({ range: { custom: { from: NOW } } }), /range\.to: required/],
    [q({ limit: -1 }), /limit/],
    [q({ select: [{ column: 'visitorClaim', claim: 'a' }], groupBy: [{ column: 'visitorClaim', claim: 'b' }] }), /select\[0\]\.column: "visitorClaim" must also be in groupBy/],
    [q({ order: { by: { column: 'url' }, direction: 'asc' } }), /order\.by\.column: "url" must also be in groupBy/],
    [q({ select: [{ column: 'eventsCount' }], groupBy: [{ column: 'url', claim: 'x' }] }), /groupBy\[0\]\.claim: only the visitorClaim column/],
  ])('refuses %#, naming the field', (query, message) => {
    expect(() => compileAggregation(query, scope, NOW)).toThrow(message);
  });
});
