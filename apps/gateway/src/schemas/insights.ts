import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

// Shapes of GitBook's site insights (SiteInsightsEvent, SiteInsightsQueryEventsAggregation,
// SiteInsightsVisitorSegment). The insights service owns the catalogue of columns, intervals,
// operators and ranges and the rules of each event type: it names the unknown one in a 400, so
// those travel here as plain bounded strings.

const NullableId = Type.Union([Type.String({ maxLength: 128 }), Type.Null()]);

const EventSession = Type.Object({
  visitorId: Type.String({ minLength: 1, maxLength: 128 }),
  sessionId: Type.String({ minLength: 1, maxLength: 128 }),
  cookies: Type.Record(Type.String(), Type.String()),
  ip: Type.Optional(Type.String({ maxLength: 64, description: 'The address of the request when absent' })),
  userAgent: Type.String({ maxLength: 1024 }),
  language: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
  referrer: Type.Union([Type.String({ maxLength: 2048 }), Type.Null()]),
  visitorAuthToken: Type.Optional(Type.Union([Type.String(), Type.Null()], { deprecated: true })),
  visitorAuthClaims: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

const EventLocation = Type.Object({
  url: Type.String({ format: 'uri', maxLength: 2048 }),
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
      maxLength: 64,
      description:
        'page_view, search_open, search_type_query, search_open_result, page_post_feedback, page_post_feedback_comment, ask_question, ask_rate_response, link_click, api_client_open, api_client_request, ad_click, ad_display, trademark_click',
    }),
  },
  { additionalProperties: true },
);

export const TrackEventsBody = Type.Object({ events: Type.Array(InsightsEvent, { maxItems: 1000 }) });

const Column = Type.Object({
  column: Type.String({ minLength: 1, maxLength: 64, description: 'A column of the catalogue, e.g. datetime, eventsCount, visitorsCount, page' }),
  interval: Type.Optional(Type.String({ maxLength: 16, description: 'For datetime: hour, day, week, month' })),
  claim: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'For visitorClaim: the claim' })),
  precision: Type.Optional(Type.Integer({ minimum: 0, maximum: 15 })),
});

const Filter = Type.Object({
  column: Column.properties.column,
  claim: Column.properties.claim,
  operator: Type.Optional(Type.String({ maxLength: 32, description: 'in (default), notIn, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual' })),
  values: Type.Array(Type.Unknown(), { maxItems: 1000 }),
});

export const AggregateBody = Type.Object({
  select: Type.Optional(Type.Array(Column, { maxItems: 50 })),
  where: Type.Optional(Type.Array(Filter, { maxItems: 50 })),
  groupBy: Type.Optional(Type.Array(Column, { maxItems: 10 })),
  order: Type.Optional(Type.Object({ by: Column, direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')]) })),
  range: Type.Union([Type.String({ maxLength: 32, description: 'lastYear, last3Months, last30Days, last7Days, last24Hours' }), Type.Object({ from: Timestamp, to: Timestamp })]),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1000 })),
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
