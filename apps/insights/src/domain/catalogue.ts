import { InvalidArgumentError } from '@quire/service-kit';
import { BOTS, BROWSERS, DEVICES, OPERATING_SYSTEMS } from './visitor.ts';
import { AD_PLACEMENTS, canonicalJson, clickhouseTime, EVENT_TYPES, FEEDBACK_RATINGS, LINK_POSITIONS, LINK_TARGET_KINDS, ORIGINS, FOUND, TRADEMARK_PLACEMENTS } from './events.ts';

/**
 * The fixed catalogue the aggregate compiler draws from: GitBook's column names
 * (SiteInsightsQueryEventsColumn), each with its SQL over the `events` table, the ClickHouse type
 * its filter values are bound as, and how a result value reads back. Nothing outside this file
 * becomes SQL text.
 */

/** The SQL of a query parameter `{name:Type}`; the compiler hands these out. */
export type Bind = (type: string, value: unknown) => string;

export interface ColumnArgs {
  interval?: string;
  claim?: string;
}

interface Filterable {
  /** ClickHouse type of one filter value. */
  type: string;
  /** A filter value as bound, or a message saying what was expected. */
  encode(value: unknown): unknown;
  /** The expression filtered on, when it differs from the selected one. */
  expr?: (args: ColumnArgs, bind: Bind) => string;
}

export interface ColumnDef {
  /** Metrics aggregate (HAVING); dimensions group (WHERE). */
  kind: 'dimension' | 'metric';
  expr: (args: ColumnArgs, bind: Bind) => string;
  decode: (value: unknown) => unknown;
  /** Absent: the column cannot be filtered on. */
  filter?: Filterable;
  /** A column of Quire's that GitBook's answers cannot carry: it filters, never is answered. */
  filterOnly?: true;
}

/** The value is not one the column takes. */
class BadValue extends Error {}

const nullIfEmpty = (v: unknown) => (v === '' ? null : v);
const asIs = (v: unknown) => v;

function stringValue(v: unknown): string {
  if (typeof v !== 'string') throw new BadValue('a string');
  return v;
}
const nullableString = (v: unknown): string => (v === null ? '' : stringValue(v));
function oneOf(values: readonly string[], nullable = false) {
  return (v: unknown): string => {
    if (nullable && (v === null || v === '')) return '';
    if (typeof v !== 'string' || !values.includes(v)) throw new BadValue(`one of ${values.join(', ')}${nullable ? ' or null' : ''}`);
    return v;
  };
}
function numberValue(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new BadValue('a number');
  return v;
}

const text: Filterable = { type: 'String', encode: stringValue };
const nullableText: Filterable = { type: 'String', encode: nullableString };
const enumFilter = (values: readonly string[], nullable = false): Filterable => ({ type: 'String', encode: oneOf(values, nullable) });

/** A plain stored column: `nullable` ones store absent values as '' and answer null. */
function plain(column: string, filter: Filterable, nullable = false): ColumnDef {
  return { kind: 'dimension', expr: () => column, decode: nullable ? nullIfEmpty : asIs, filter };
}

function metric(expr: string, decode: (v: unknown) => unknown, filterable: boolean): ColumnDef {
  return { kind: 'metric', expr: () => expr, decode, ...(filterable ? { filter: { type: 'Float64', encode: numberValue } } : {}) };
}

/** ClickHouse DateTime/Date text (UTC) as ISO 8601. */
export function isoTime(value: unknown): string {
  const s = String(value);
  return new Date(s.length === 10 ? `${s}T00:00:00Z` : `${s.replace(' ', 'T')}Z`).toISOString();
}

/** The hour of an event: the time key of the table's aggregate projections. */
export const HOUR = 'toStartOfHour(timestamp)';

// Every interval is computed from the hour, so that ClickHouse can answer it from the hourly
// projection instead of reading every event.
export const INTERVALS: Record<string, string> = {
  hour: HOUR,
  day: `toStartOfDay(${HOUR})`,
  // Weeks start on Monday (ISO 8601).
  week: `toDateTime(toMonday(${HOUR}), 'UTC')`,
  month: `toDateTime(toStartOfMonth(${HOUR}), 'UTC')`,
};

const datetime: ColumnDef = {
  kind: 'dimension',
  expr: ({ interval }) => (interval ? INTERVALS[interval]! : 'timestamp'),
  decode: isoTime,
  filter: {
    type: "DateTime64(3, 'UTC')",
    encode(v) {
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new BadValue('an ISO 8601 date-time');
      return clickhouseTime(new Date(v));
    },
  },
};

const count = (v: unknown) => Number(v);
// Unique counts are uniqCombined(12): exact for small sets, within about 2 % beyond, and a state
// small enough for the hourly projection to keep and merge (uniq's states made a 30-day query by
// day take half a second on 10 million events, uniqExact several seconds).
export const VISITORS = 'uniqCombined(12)(visitor_id)';
export const SESSIONS = 'uniqCombined(12)(session_id)';
const metrics: Record<string, ColumnDef> = {
  eventsCount: metric('count()', count, true),
  sessionsCount: metric(SESSIONS, count, true),
  visitorsCount: metric(VISITORS, count, true),
  pageFeedbackRating: metric(
    "tuple(countIf(feedback_rating = 'ok'), countIf(feedback_rating = 'good'), countIf(feedback_rating = 'bad'))",
    (v) => {
      const [ok, good, bad] = v as unknown[];
      return { ok: Number(ok), good: Number(good), bad: Number(bad) };
    },
    false,
  ),
  askResponseRating: metric(
    'tuple(countIf(ask_rating = 1), countIf(ask_rating = -1))',
    (v) => {
      const [positive, negative] = v as unknown[];
      return { positive: Number(positive), negative: Number(negative) };
    },
    false,
  ),
};

// A claim's value as text whatever its JSON type, so that `true` and 3 can be grouped and filtered.
const claimExpr = ({ claim }: ColumnArgs, bind: Bind) => {
  const name = bind('String', claim);
  return `if(JSONType(claims, ${name}) = 'String', JSONExtractString(claims, ${name}), JSONExtractRaw(claims, ${name}))`;
};

const dimensions: Record<string, ColumnDef> = {
  datetime,
  url: plain('url', text),
  eventType: plain('event_type', enumFilter(EVENT_TYPES)),
  siteSection: plain('site_section', nullableText, true),
  siteSpace: plain('site_space', nullableText, true),
  siteShareKey: plain('site_share_key', nullableText, true),
  page: {
    kind: 'dimension',
    expr: () => '(page, space)',
    decode(v) {
      const [page, space] = v as string[];
      return space ? { page: page || null, space } : null;
    },
    filter: {
      type: 'String',
      // A page is only unique within its space: both are compared, as one string.
      expr: () => "concat(space, '/', page)",
      encode(v) {
        if (v === null) return '/';
        const p = v as { page?: unknown; space?: unknown };
        if (typeof p !== 'object' || typeof p.space !== 'string' || (p.page !== null && typeof p.page !== 'string')) throw new BadValue('null or {page, space}');
        return `${p.space}/${p.page ?? ''}`;
      },
    },
  },
  visitorGeoCountry: plain('geo_country', nullableText, true),
  // No geolocation database: the column is known and answers nulls.
  visitorGeoPoint: { kind: 'dimension', expr: () => "CAST(NULL, 'Nullable(String)')", decode: () => null },
  visitorDevice: plain('device', enumFilter(DEVICES)),
  visitorBrowser: plain('browser', enumFilter(BROWSERS)),
  visitorOS: plain('os', enumFilter(OPERATING_SYSTEMS)),
  visitorBot: plain('bot', enumFilter(BOTS, true), true),
  visitorLanguage: plain('language', nullableText, true),
  eventLinkTargetValue: {
    kind: 'dimension',
    expr: () => 'link_target',
    decode: (v) => (v ? (JSON.parse(String(v)) as unknown) : null),
    filter: {
      type: 'String',
      encode(v) {
        if (!v || typeof v !== 'object' || typeof (v as { kind?: unknown }).kind !== 'string') throw new BadValue('a content reference {kind, ...}');
        return canonicalJson(v);
      },
    },
  },
  eventLinkTargetKind: plain('link_target_kind', enumFilter(LINK_TARGET_KINDS), true),
  eventLinkTargetDomain: plain('link_target_domain', nullableText, true),
  eventLinkPosition: plain('link_position', enumFilter(LINK_POSITIONS), true),
  eventAPIOperationPath: plain('api_operation_path', nullableText, true),
  eventAPIOperationMethod: plain('api_operation_method', nullableText, true),
  eventSearchQuery: plain('search_query', text),
  eventPageFeedbackRating: plain('feedback_rating', enumFilter(FEEDBACK_RATINGS), true),
  eventPageFeedbackComment: plain('feedback_comment', text),
  eventAskResponseRating: {
    kind: 'dimension',
    expr: () => 'ask_rating',
    decode: (v) => (Number(v) === 0 ? null : Number(v)),
    filter: {
      type: 'Int8',
      encode(v) {
        if (v !== 1 && v !== -1) throw new BadValue('1 or -1');
        return v;
      },
    },
  },
  referrer: plain('referrer', text),
  referrerDomain: plain('referrer_domain', text),
  utmSource: plain('utm_source', text),
  utmMedium: plain('utm_medium', text),
  utmCampaign: plain('utm_campaign', text),
  utmTerm: plain('utm_term', text),
  utmContent: plain('utm_content', text),
  visitorClaimProperty: { kind: 'dimension', expr: () => 'arrayJoin(JSONExtractKeys(claims))', decode: asIs, filter: text },
  visitorClaim: { kind: 'dimension', expr: claimExpr, decode: asIs, filter: text },
  eventAdDomain: plain('ad_domain', text),
  eventAdPlacement: plain('ad_placement', enumFilter(AD_PLACEMENTS)),
  eventTrademarkPlacement: plain('trademark_placement', enumFilter(TRADEMARK_PLACEMENTS)),
  // Quire's: a visitor's events (`web`) apart from an AI assistant's through the MCP server (`mcp`).
  eventOrigin: { ...plain('origin', enumFilter(ORIGINS)), filterOnly: true },
  // Quire's, on an assistant's events: the MCP tool called, and whether it found anything (true or false).
  eventMcpTool: { ...plain('mcp_tool', text), filterOnly: true },
  eventFound: {
    kind: 'dimension',
    expr: () => 'found',
    decode: (v) => (Number(v) === FOUND.unknown ? null : Number(v) === FOUND.something),
    filter: {
      type: 'Int8',
      encode(v) {
        if (typeof v !== 'boolean') throw new BadValue('true or false');
        return v ? FOUND.something : FOUND.nothing;
      },
    },
    filterOnly: true,
  },
};

export const COLUMNS: Record<string, ColumnDef> = { ...dimensions, ...metrics };

/** GitBook's SiteInsightsQueryOperator values, as SQL. */
export const OPERATORS: Record<string, { sql: string; single: boolean }> = {
  in: { sql: 'IN', single: false },
  notIn: { sql: 'NOT IN', single: false },
  greaterThan: { sql: '>', single: true },
  greaterThanOrEqual: { sql: '>=', single: true },
  lessThan: { sql: '<', single: true },
  lessThanOrEqual: { sql: '<=', single: true },
};

/** GitBook's SiteInsightsQueryRangePreset values: the start of each, from the end `now`. */
export const RANGES: Record<string, (now: Date) => Date> = {
  lastYear: (now) => shifted(now, (d) => d.setUTCFullYear(d.getUTCFullYear() - 1)),
  last3Months: (now) => shifted(now, (d) => d.setUTCMonth(d.getUTCMonth() - 3)),
  last30Days: (now) => new Date(now.getTime() - 30 * DAY_MS),
  last7Days: (now) => new Date(now.getTime() - 7 * DAY_MS),
  last24Hours: (now) => new Date(now.getTime() - DAY_MS),
};

const DAY_MS = 24 * 60 * 60 * 1000;

function shifted(now: Date, change: (d: Date) => void): Date {
  const d = new Date(now);
  change(d);
  return d;
}

/** A filter value bound for `column`, or INVALID_ARGUMENT naming `field`. */
export function encodeValue(filter: Filterable, value: unknown, field: string): unknown {
  try {
    return filter.encode(value);
  } catch (err) {
    if (err instanceof BadValue) throw new InvalidArgumentError(`${field}: must be ${err.message}`);
    throw err;
  }
}
