// The insights charts' questions to `POST .../insights/events/aggregate`, and their answers as rows.

export type Range = 'last24Hours' | 'last7Days' | 'last30Days' | 'last3Months' | 'lastYear';
export const RANGES: [Range, string][] = [
  ['last7Days', 'Last 7 days'],
  ['last30Days', 'Last 30 days'],
  ['last3Months', 'Last 3 months'],
  ['lastYear', 'Last year'],
];

/** Whose events: everyone's, visitors' in their browsers, or AI assistants' through the site's MCP server. */
export type Audience = 'all' | 'web' | 'mcp';
export const AUDIENCES: [Audience, string][] = [
  ['all', 'Everyone'],
  ['web', 'Visitors'],
  ['mcp', 'AI assistants (MCP)'],
];

const DAY = { column: 'datetime', interval: 'day' };

/** The filters of one event type, for one audience. */
const eventsOf = (type: string, audience: Audience) => [{ column: 'eventType', values: [type] }, ...(audience === 'all' ? [] : [{ column: 'eventOrigin', values: [audience] }])];

export const visitsQuery = (range: Range, audience: Audience = 'all') => ({
  select: [DAY, { column: 'visitorsCount' }, { column: 'eventsCount' }],
  where: eventsOf('page_view', audience),
  groupBy: [DAY],
  order: { by: DAY, direction: 'asc' },
  range,
});

type Filter = { column: string; operator?: string; values: unknown[] };

/** The `column` values with the most events of one type (and `also`), most first. */
const topQuery =
  (column: string, type: string, also: Filter[] = []) =>
  (range: Range, audience: Audience = 'all', limit = 10) => ({
    select: [{ column }, { column: 'eventsCount' }],
    where: [...eventsOf(type, audience), ...also],
    groupBy: [{ column }],
    order: { by: { column: 'eventsCount' }, direction: 'desc' },
    range,
    limit,
  });

/**
 * The most viewed pages (by URL, which names the page for a reader of the chart): views of a page,
 * not an assistant's listing of the pages or its read of one that is not there.
 */
export const topPagesQuery = topQuery('url', 'page_view', [{ column: 'page', operator: 'notIn', values: [null] }]);
export const searchesQuery = topQuery('eventSearchQuery', 'search_type_query');
/** AI assistants' searches through the MCP server that found nothing: what the documentation lacks. */
export const unansweredQuery = (range: Range, limit = 10) => topQuery('eventSearchQuery', 'search_type_query', [{ column: 'eventFound', values: [false] }])(range, 'mcp', limit);

export interface Aggregate {
  columns: { column: string; values: unknown[] }[];
}

/** The answer's columns as rows keyed by column name. */
export function rows(a: Aggregate): Record<string, unknown>[] {
  const n = Math.max(0, ...a.columns.map((c) => c.values.length));
  return Array.from({ length: n }, (_, i) => Object.fromEntries(a.columns.map((c) => [c.column, c.values[i]])));
}

const DAY_MS = 86_400_000;
const RANGE_DAYS: Record<Range, number> = { last24Hours: 1, last7Days: 7, last30Days: 30, last3Months: 92, lastYear: 365 };

/** One point per day of the range up to `now` (days without visits count 0), for a line without gaps. */
export function dailySeries(a: Aggregate, range: Range, now: Date, metric = 'visitorsCount'): { day: string; value: number }[] {
  const byDay = new Map(rows(a).map((r) => [String(r.datetime).slice(0, 10), Number(r[metric] ?? 0)]));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const out: { day: string; value: number }[] = [];
  for (let i = RANGE_DAYS[range] - 1; i >= 0; i--) {
    const day = new Date(today - i * DAY_MS).toISOString().slice(0, 10);
    out.push({ day, value: byDay.get(day) ?? 0 });
  }
  return out;
}

/** A page's URL as its path on the site, shorter to read in a chart. */
export function urlLabel(url: unknown): string {
  try {
    const u = new URL(String(url));
    return u.pathname + u.search;
  } catch {
    return String(url);
  }
}
