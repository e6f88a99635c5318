import { isIP } from 'node:net';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { COMMON, INSIGHTS } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';
import { parseUserAgent } from './visitor.ts';

/** GitBook's SiteInsightsEventType values. */
export const EVENT_TYPES = [
  'page_view',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'ask_question',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Where an event comes from, a field of Quire's beside GitBook's: a visitor reading the site
 * (`web`, the default) or an AI assistant calling its MCP server (`mcp`). The event types stay
 * GitBook's, so every GitBook-shaped answer stays valid and totals keep counting both.
 */
export const ORIGINS = ['web', 'mcp'] as const;

/** `found` as stored: unknown (a visitor's event), nothing found, something found. */
export const FOUND = { unknown: -1, nothing: 0, something: 1 } as const;

export const FEEDBACK_RATINGS = ['bad', 'ok', 'good'] as const;
export const LINK_POSITIONS = ['announcement', 'header', 'footer', 'sidebar', 'content'] as const;
export const LINK_TARGET_KINDS = ['url', 'page', 'file', 'anchor', 'space', 'collection', 'user', 'reusable-content', 'openapi'] as const;
export const TRADEMARK_PLACEMENTS = ['sidebar', 'ad', 'footer', 'pdf'] as const;
export const AD_PLACEMENTS = ['aside'] as const;

/** Bound of the claims object as JSON: claims are a handful of visitor attributes, not documents. */
export const MAX_CLAIMS_JSON = 4096;

const enumOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Text = (max: number) => Type.String({ maxLength: max });
const Url = Type.String({ minLength: COMMON.url.min, maxLength: COMMON.url.max });
const NullableId = Type.Union([Type.String({ maxLength: COMMON.id.max }), Type.Null()]);

const Session = Type.Object({
  visitorId: Type.String({ minLength: INSIGHTS.visitorId.min, maxLength: INSIGHTS.visitorId.max }),
  sessionId: Type.String({ minLength: INSIGHTS.visitorId.min, maxLength: INSIGHTS.visitorId.max }),
  cookies: Type.Record(Type.String({ maxLength: 256 }), Text(4096), { maxProperties: 100 }),
  ip: Type.Optional(Text(INSIGHTS.ip.max)),
  userAgent: Text(INSIGHTS.userAgent.max),
  language: Type.Union([Text(INSIGHTS.language.max), Type.Null()]),
  referrer: Type.Union([Type.String({ maxLength: COMMON.url.max }), Type.Null()]),
  visitorAuthToken: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  visitorAuthClaims: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

const Location = Type.Object({
  url: Url,
  siteSection: NullableId,
  siteSpace: NullableId,
  siteShareKey: NullableId,
  space: NullableId,
  revision: NullableId,
  page: NullableId,
});

const Base = Type.Object({
  session: Session,
  location: Location,
  timestamp: Type.Optional(Type.String({ maxLength: 64 })),
  type: Type.String({ maxLength: INSIGHTS.eventType.max }),
  origin: Type.Optional(enumOf(ORIGINS)),
  // Quire's, on an assistant's events: the MCP tool called and whether it found anything.
  tool: Type.Optional(Type.String({ minLength: INSIGHTS.tool.min, maxLength: INSIGHTS.tool.max })),
  found: Type.Optional(Type.Boolean()),
});

const Query = Text(512);
const Feedback = Type.Object({ rating: enumOf(FEEDBACK_RATINGS) });
const Ad = Type.Object({ domain: Text(256), zoneId: Text(128), placement: enumOf(AD_PLACEMENTS) });
const Operation = Type.Object({ path: Text(2048), method: Text(16) });

/** The fields each type adds to the base event (GitBook's SiteInsightsEvent* variants). */
const EXTRAS: Record<EventType, TSchema> = {
  page_view: Type.Object({}),
  search_open: Type.Object({}),
  search_type_query: Type.Object({ query: Query }),
  search_open_result: Type.Object({ query: Query, result: Type.Object({ spaceId: Text(128), pageId: Text(128) }) }),
  page_post_feedback: Type.Object({ feedback: Feedback }),
  page_post_feedback_comment: Type.Object({ feedback: Type.Object({ rating: enumOf(FEEDBACK_RATINGS), comment: Type.String({ minLength: 1, maxLength: 512 }) }) }),
  ask_question: Type.Object({ query: Query }),
  ask_rate_response: Type.Object({ query: Query, rating: Type.Union([Type.Literal(1), Type.Literal(-1)]), responseId: Text(128) }),
  link_click: Type.Object({
    link: Type.Object({
      target: Type.Object({ kind: enumOf(LINK_TARGET_KINDS) }, { additionalProperties: Type.Union([Text(2048), Type.Boolean(), Type.Number()]) }),
      position: enumOf(LINK_POSITIONS),
    }),
  }),
  api_client_open: Type.Object({ operation: Operation }),
  api_client_request: Type.Object({ operation: Operation }),
  ad_click: Type.Object({ ad: Ad }),
  ad_display: Type.Object({ ad: Ad }),
  trademark_click: Type.Object({ placement: enumOf(TRADEMARK_PLACEMENTS) }),
};

type BaseEvent = Static<typeof Base>;
/** An event as the API takes it: the base fields plus those of its type. */
export type ApiEvent = BaseEvent & {
  query?: string;
  result?: { spaceId: string; pageId: string };
  feedback?: { rating: string; comment?: string };
  rating?: number;
  responseId?: string;
  link?: { target: { kind: string } & Record<string, unknown>; position: string };
  operation?: { path: string; method: string };
  ad?: { domain: string; zoneId: string; placement: string };
  placement?: string;
  origin?: (typeof ORIGINS)[number];
  tool?: string;
  found?: boolean;
};

const checkBase = TypeCompiler.Compile(Base);
const checkExtras = Object.fromEntries(Object.entries(EXTRAS).map(([t, s]) => [t, TypeCompiler.Compile(s)])) as Record<EventType, TypeCheck<TSchema>>;
const isEventType = (t: string): t is EventType => t in EXTRAS;

/** `/3/session/visitorId` as `events[3].session.visitorId`. */
function fieldName(prefix: string, pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : `${name}.${part}`), prefix);
}

function check(checker: TypeCheck<TSchema>, value: unknown, field: string): void {
  if (checker.Check(value)) return;
  const err = checker.Errors(value).First()!;
  throw new InvalidArgumentError(`${fieldName(field, err.path)}: ${err.message}`);
}

/**
 * The row of the `events` table for one API event; column names are the table's. Absent ids are
 * '' (ClickHouse groups and filters on plain strings faster than on Nullable ones); the query
 * layer turns them back into nulls.
 */
export interface EventRow {
  organization_id: string;
  site_id: string;
  timestamp: string;
  event_type: EventType;
  visitor_id: string;
  session_id: string;
  ip: string;
  user_agent: string;
  language: string;
  referrer: string;
  referrer_domain: string;
  claims: string;
  url: string;
  site_section: string;
  site_space: string;
  site_share_key: string;
  space: string;
  revision: string;
  page: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_term: string;
  utm_content: string;
  device: string;
  browser: string;
  os: string;
  bot: string;
  geo_country: string;
  search_query: string;
  search_result_space: string;
  search_result_page: string;
  feedback_rating: string;
  feedback_comment: string;
  ask_rating: number;
  ask_response_id: string;
  link_target: string;
  link_target_kind: string;
  link_target_domain: string;
  link_position: string;
  api_operation_path: string;
  api_operation_method: string;
  ad_domain: string;
  ad_zone_id: string;
  ad_placement: string;
  trademark_placement: string;
  origin: (typeof ORIGINS)[number];
  mcp_tool: string;
  found: number;
}

/**
 * The row's columns in the order messages carry them (JSONCompactEachRow: values without keys,
 * half the bytes of JSONEachRow to store, send and parse). toRow builds a row's keys in this
 * order: the publisher writes its values as they are.
 */
export const ROW_COLUMNS = [
  'organization_id',
  'site_id',
  'timestamp',
  'event_type',
  'visitor_id',
  'session_id',
  'ip',
  'user_agent',
  'language',
  'referrer',
  'referrer_domain',
  'claims',
  'url',
  'site_section',
  'site_space',
  'site_share_key',
  'space',
  'revision',
  'page',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'device',
  'browser',
  'os',
  'bot',
  'geo_country',
  'search_query',
  'search_result_space',
  'search_result_page',
  'feedback_rating',
  'feedback_comment',
  'ask_rating',
  'ask_response_id',
  'link_target',
  'link_target_kind',
  'link_target_domain',
  'link_position',
  'api_operation_path',
  'api_operation_method',
  'ad_domain',
  'ad_zone_id',
  'ad_placement',
  'trademark_placement',
  // Last: a message written before the column existed lacks only it (stored as its default).
  'origin',
  'mcp_tool',
  'found',
] as const satisfies readonly (keyof EventRow)[];

/** A plain object whose keys are in order and whose values are not objects: JSON as it is. */
function isFlatAndSorted(value: object): boolean {
  let previous = '';
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (key < previous || (v !== null && typeof v === 'object')) return false;
    previous = key;
  }
  return true;
}

/** JSON with object keys sorted, so equal claims and link targets are equal strings. */
export function canonicalJson(value: unknown): string {
  // Most claims are a few flat keys: their JSON needs no replacer, which costs per key.
  if (value && typeof value === 'object' && !Array.isArray(value) && isFlatAndSorted(value)) return JSON.stringify(value);
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** ClickHouse's DateTime64(3) text for a date, in UTC. */
export const clickhouseTime = (d: Date) => d.toISOString().slice(0, 23).replace('T', ' ');

/**
 * A memo of a pure function of strings, forgotten whole when full: visitors of a site share a
 * few user agents and referrers, so most events of a batch are answered without parsing.
 */
function memo<T>(compute: (key: string) => T, size = 2000): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined && !known.has(key)) {
      value = compute(key);
      if (known.size >= size) known.clear();
      known.set(key, value);
    }
    return value as T;
  };
}

/** The host of an absolute URL, or `undefined` when it is not one. */
const hostOf = memo((value: string) => (URL.canParse(value) ? new URL(value).hostname : undefined));
const agentOf = memo(parseUserAgent);

const UTM = /[?&]utm_/;

/**
 * The `utm_*` parameters of an absolute URL, or `undefined` when it is not one. Remembered as the
 * hosts are: a campaign's visitors land on the same few URLs, each built into a URL object once.
 */
const utmOf = memo((value: string): URLSearchParams | null | undefined => {
  // Only a URL that has them is built: checking that it parses is cheaper than the URL object.
  if (!UTM.test(value)) return URL.canParse(value) ? null : undefined;
  try {
    return new URL(value).searchParams;
  } catch {
    return undefined;
  }
});

export interface BatchContext {
  organizationId: string;
  siteId: string;
  /** Default of `session.ip`: the address the request came from. */
  clientIp: string;
  now: Date;
  /** The batch comes from the reader, whose MCP server alone records assistants' events. */
  fromReader: boolean;
}

// Events may be sent late (a visitor's browser batches them); one from the future is a clock error.
const MAX_CLOCK_SKEW_MS = 60 * 60 * 1000;

const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i;

/** What every event of a batch shares, worked out once per batch. */
interface Shared extends BatchContext {
  /** `now` as a row's timestamp, that of every event without one. */
  nowText: string;
}

function timestampOf(value: string, field: string, now: Date): string {
  const ms = Date.parse(value);
  if (!ISO_DATE_TIME.test(value) || Number.isNaN(ms)) throw new InvalidArgumentError(`${field}: must be an ISO 8601 date-time`);
  if (ms > now.getTime() + MAX_CLOCK_SKEW_MS) throw new InvalidArgumentError(`${field}: must not be in the future`);
  return clickhouseTime(new Date(ms));
}

function toRow(raw: unknown, index: number, ctx: Shared): EventRow {
  const field = `events[${index}]`;
  check(checkBase, raw, field);
  const e = raw as ApiEvent;
  if (!isEventType(e.type)) throw new InvalidArgumentError(`${field}.type: unknown event type "${e.type}"`);
  check(checkExtras[e.type], e, field);
  // Anyone may post events: none but the reader's MCP server may pass them off as an assistant's.
  if (e.origin === 'mcp' && !ctx.fromReader) throw new InvalidArgumentError(`${field}.origin: "mcp" is recorded by the site's MCP server only`);
  if ((e.tool !== undefined || e.found !== undefined) && e.origin !== 'mcp')
    throw new InvalidArgumentError(`${field}.tool: only an assistant's event (origin "mcp") has a tool and found`);
  const { session: s, location: l } = e;
  const ip = s.ip ?? ctx.clientIp;
  if (s.ip !== undefined && !isIP(s.ip)) throw new InvalidArgumentError(`${field}.session.ip: must be an IP address`);
  const utm = utmOf(l.url);
  if (utm === undefined) throw new InvalidArgumentError(`${field}.location.url: must be an absolute URL`);
  const referrerDomain = s.referrer ? hostOf(s.referrer) : '';
  if (referrerDomain === undefined) throw new InvalidArgumentError(`${field}.session.referrer: must be an absolute URL`);
  const claims = s.visitorAuthClaims ? canonicalJson(s.visitorAuthClaims) : '{}';
  if (claims.length > MAX_CLAIMS_JSON) throw new InvalidArgumentError(`${field}.session.visitorAuthClaims: at most ${MAX_CLAIMS_JSON} characters as JSON`);
  const agent = agentOf(s.userAgent);
  const target = e.link?.target;
  return {
    organization_id: ctx.organizationId,
    site_id: ctx.siteId,
    timestamp: e.timestamp === undefined ? ctx.nowText : timestampOf(e.timestamp, `${field}.timestamp`, ctx.now),
    event_type: e.type,
    visitor_id: s.visitorId,
    session_id: s.sessionId,
    ip,
    user_agent: s.userAgent,
    language: s.language ?? '',
    referrer: s.referrer ?? '',
    referrer_domain: referrerDomain,
    claims,
    url: l.url,
    site_section: l.siteSection ?? '',
    site_space: l.siteSpace ?? '',
    site_share_key: l.siteShareKey ?? '',
    space: l.space ?? '',
    revision: l.revision ?? '',
    page: l.page ?? '',
    utm_source: utm?.get('utm_source') ?? '',
    utm_medium: utm?.get('utm_medium') ?? '',
    utm_campaign: utm?.get('utm_campaign') ?? '',
    utm_term: utm?.get('utm_term') ?? '',
    utm_content: utm?.get('utm_content') ?? '',
    device: agent.device,
    browser: agent.browser,
    os: agent.os,
    bot: agent.bot ?? '',
    // No geolocation database is shipped: the column exists so the catalogue answers, with nulls.
    geo_country: '',
    search_query: e.query ?? '',
    search_result_space: e.result?.spaceId ?? '',
    search_result_page: e.result?.pageId ?? '',
    feedback_rating: e.feedback?.rating ?? '',
    feedback_comment: e.feedback?.comment ?? '',
    ask_rating: e.rating ?? 0,
    ask_response_id: e.responseId ?? '',
    link_target: target ? canonicalJson(target) : '',
    link_target_kind: target?.kind ?? '',
    link_target_domain: target?.kind === 'url' && typeof target.url === 'string' ? (hostOf(target.url) ?? '') : '',
    link_position: e.link?.position ?? '',
    api_operation_path: e.operation?.path ?? '',
    api_operation_method: e.operation?.method.toUpperCase() ?? '',
    ad_domain: e.ad?.domain ?? '',
    ad_zone_id: e.ad?.zoneId ?? '',
    ad_placement: e.ad?.placement ?? '',
    trademark_placement: e.placement ?? '',
    origin: e.origin ?? 'web',
    mcp_tool: e.tool ?? '',
    found: e.found === undefined ? FOUND.unknown : e.found ? FOUND.something : FOUND.nothing,
  };
}

/**
 * A request's events as table rows, or INVALID_ARGUMENT naming the first field at fault: a batch
 * is taken whole or not at all.
 */
export function eventRows(events: unknown, ctx: BatchContext): EventRow[] {
  if (!Array.isArray(events)) throw new InvalidArgumentError('events: must be an array');
  if (events.length > INSIGHTS.events.max) throw new InvalidArgumentError(`events: at most ${INSIGHTS.events.max} events per request`);
  const shared: Shared = { ...ctx, nowText: clickhouseTime(ctx.now) };
  return events.map((e, i) => toRow(e, i, shared));
}
