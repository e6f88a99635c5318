import { Type } from '@sinclair/typebox';
import { COMMON, INSIGHTS } from '@quire/proto/limits';
import { chars, items, range, Timestamp } from './common.ts';

// Shapes of GitBook's site insights (SiteInsightsEvent, SiteInsightsQueryEventsAggregation,
// SiteInsightsVisitorSegment). The insights service owns the catalogue of columns, intervals,
// operators and ranges and the rules of each event type: it names the unknown one in a 400, so
// those travel here as plain bounded strings.

const NullableId = Type.Union([Type.String({ maxLength: COMMON.id.max }), Type.Null()]);

const EventSession = Type.Object({
  visitorId: Type.String(chars(INSIGHTS.visitorId)),
  sessionId: Type.String(chars(INSIGHTS.visitorId)),
  cookies: Type.Record(Type.String(), Type.String()),
  ip: Type.Optional(Type.String({ ...chars(INSIGHTS.ip), description: 'The address of the request when absent' })),
  userAgent: Type.String(chars(INSIGHTS.userAgent)),
  language: Type.Union([Type.String(chars(INSIGHTS.language)), Type.Null()]),
  referrer: Type.Union([Type.String({ maxLength: COMMON.url.max }), Type.Null()]),
  visitorAuthToken: Type.Optional(Type.Union([Type.String(), Type.Null()], { deprecated: true })),
  visitorAuthClaims: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

const EventLocation = Type.Object({
  url: Type.String({ format: 'uri', maxLength: COMMON.url.max }),
  siteSection: NullableId,
  siteSpace: NullableId,
  siteShareKey: NullableId,
  space: NullableId,
  revision: NullableId,
  page: NullableId,
});

/** The base event; each type adds its own fields (`query`, `feedback`, `link`, ...), checked by the service. */
export const InsightsEvent = Type.Object(
  {
    session: EventSession,
    location: EventLocation,
    timestamp: Type.Optional(Timestamp),
    type: Type.String({
      ...chars(INSIGHTS.eventType),
      description:
        'page_view, search_open, search_type_query, search_open_result, page_post_feedback, page_post_feedback_comment, ask_question, ask_rate_response, link_click, api_client_open, api_client_request, ad_click, ad_display, trademark_click',
    }),
    origin: Type.Optional(
      Type.Union([Type.Literal('web'), Type.Literal('mcp')], {
        description:
          "Quire's: a visitor's event (web, the default) or an AI assistant's through the site's MCP server (mcp), which only the reader records; filter on it with the eventOrigin column",
      }),
    ),
    tool: Type.Optional(
      Type.String({
        ...chars(INSIGHTS.tool),
        description: "Quire's, on an assistant's event: the MCP tool called (searchDocumentation, getPage, listPages); the eventMcpTool column",
      }),
    ),
    found: Type.Optional(Type.Boolean({ description: "Quire's, on an assistant's event: whether the call found anything; the eventFound column" })),
  },
  { additionalProperties: true },
);

export const TrackEventsBody = Type.Object({ events: Type.Array(InsightsEvent, items(INSIGHTS.events)) });

const Column = Type.Object({
  column: Type.String({ ...chars(INSIGHTS.column), description: 'A column of the catalogue, e.g. datetime, eventsCount, visitorsCount, page' }),
  interval: Type.Optional(Type.String({ ...chars(INSIGHTS.interval), description: 'For datetime: hour, day, week, month' })),
  claim: Type.Optional(Type.String({ ...chars(INSIGHTS.claim), description: 'For visitorClaim: the claim' })),
  precision: Type.Optional(Type.Integer(range(INSIGHTS.precision))),
});

const Filter = Type.Object({
  column: Column.properties.column,
  claim: Column.properties.claim,
  operator: Type.Optional(Type.String({ ...chars(INSIGHTS.operator), description: 'in (default), notIn, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual' })),
  values: Type.Array(Type.Unknown(), items(INSIGHTS.values)),
});

export const AggregateBody = Type.Object({
  select: Type.Optional(Type.Array(Column, items(INSIGHTS.columns))),
  where: Type.Optional(Type.Array(Filter, items(INSIGHTS.filters))),
  groupBy: Type.Optional(Type.Array(Column, items(INSIGHTS.groupBy))),
  order: Type.Optional(Type.Object({ by: Column, direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')]) })),
  range: Type.Union([
    Type.String({ ...chars(INSIGHTS.range), description: 'lastYear, last3Months, last30Days, last7Days, last24Hours' }),
    Type.Object({ from: Timestamp, to: Timestamp }),
  ]),
  limit: Type.Optional(Type.Integer({ ...range(INSIGHTS.limit), default: INSIGHTS.limit.max })),
});

export const AggregateResult = Type.Object({
  columns: Type.Array(Type.Object({ column: Type.String(), claim: Type.Optional(Type.String()), values: Type.Array(Type.Unknown()) })),
});

export const VisitorSegment = Type.Object({
  title: Type.String(),
  claims: Type.Record(Type.String(), Type.Unknown()),
  events: Type.Number(),
  visitors: Type.Number(),
  sessions: Type.Number(),
});
