import { describe, expect, it } from 'vitest';
import { dailySeries, rows, searchesQuery, topPagesQuery, unansweredQuery, urlLabel, visitsQuery } from './insights.ts';

describe('insights', () => {
  it('asks for page views per day, ordered by day', () => {
    expect(visitsQuery('last7Days')).toEqual({
      select: [{ column: 'datetime', interval: 'day' }, { column: 'visitorsCount' }, { column: 'eventsCount' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
      groupBy: [{ column: 'datetime', interval: 'day' }],
      order: { by: { column: 'datetime', interval: 'day' }, direction: 'asc' },
      range: 'last7Days',
    });
    expect(topPagesQuery('lastYear', 'all', 5)).toMatchObject({ order: { by: { column: 'eventsCount' }, direction: 'desc' }, limit: 5 });
  });

  it("asks for one audience's events: visitors' or AI assistants' (the eventOrigin filter), everyone's without it", () => {
    expect(searchesQuery('last7Days', 'mcp').where).toEqual([
      { column: 'eventType', values: ['search_type_query'] },
      { column: 'eventOrigin', values: ['mcp'] },
    ]);
    expect(topPagesQuery('last7Days', 'web').where).toEqual([
      { column: 'eventType', values: ['page_view'] },
      { column: 'eventOrigin', values: ['web'] },
      { column: 'page', operator: 'notIn', values: [null] },
    ]);
    expect(visitsQuery('last7Days', 'all').where).toEqual([{ column: 'eventType', values: ['page_view'] }]);
  });

  it("asks for AI assistants' searches that found nothing, most asked first", () => {
    expect(unansweredQuery('last30Days')).toEqual({
      select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }],
      where: [
        { column: 'eventType', values: ['search_type_query'] },
        { column: 'eventOrigin', values: ['mcp'] },
        { column: 'eventFound', values: [false] },
      ],
      groupBy: [{ column: 'eventSearchQuery' }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      range: 'last30Days',
      limit: 10,
    });
  });

  it('turns columns into rows', () => {
    expect(
      rows({
        columns: [
          { column: 'url', values: ['a', 'b'] },
          { column: 'eventsCount', values: [3, 1] },
        ],
      }),
    ).toEqual([
      { url: 'a', eventsCount: 3 },
      { url: 'b', eventsCount: 1 },
    ]);
    expect(rows({ columns: [] })).toEqual([]);
  });

  it('fills the days without visits with 0, up to today', () => {
    const a = {
      columns: [
        { column: 'datetime', values: ['2026-11-20T00:00:00.000Z', '2026-11-24T00:00:00.000Z'] },
        { column: 'visitorsCount', values: [2, 5] },
      ],
    };
    expect(dailySeries(a, 'last7Days', new Date('2026-11-24T15:00:00Z'))).toEqual([
      { day: '2026-11-18', value: 0 },
      { day: '2026-11-19', value: 0 },
      { day: '2026-11-20', value: 2 },
      { day: '2026-11-21', value: 0 },
      { day: '2026-11-22', value: 0 },
      { day: '2026-11-23', value: 0 },
      { day: '2026-11-24', value: 5 },
    ]);
  });

  it('labels a page by its path', () => {
    expect(urlLabel('http://127.0.0.1:8090/org/site/guide?x=1')).toBe('/org/site/guide?x=1');
    expect(urlLabel('not a url')).toBe('not a url');
  });
});
