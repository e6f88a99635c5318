import type { AggregateEventsRequest, Column, InsightsServiceServer } from '@quire/proto/insights';
import { callsAsItself, InvalidArgumentError, parseClientJson, type Handlers } from '@quire/service-kit';
import { eventRows } from '../domain/events.ts';
import { compileAggregation, type ColumnRef } from '../domain/query.ts';
import { segmentTitle } from '../domain/segments.ts';
import { presentAggregation } from '../presenters.ts';
import { requireMember, type Deps } from './deps.ts';

const ref = (c: Column | undefined, field: string): ColumnRef => {
  if (!c) throw new InvalidArgumentError(`${field}: required`);
  return { column: c.column, interval: c.interval, claim: c.claim, precision: c.precision };
};

function aggregation(req: AggregateEventsRequest) {
  return {
    select: req.select.map((c, i) => ref(c, `select[${i}]`)),
    where: req.where.map((f, i) => ({ column: ref(f.column, `where[${i}]`), operator: f.operator, values: f.values ?? [] })),
    groupBy: req.groupBy.map((c, i) => ref(c, `groupBy[${i}]`)),
    order: req.order ? { by: ref(req.order.by, 'order.by'), direction: req.order.direction } : undefined,
    range: { preset: req.range?.preset, custom: req.range?.custom },
    limit: req.limit,
  };
}

/** The `events` of a request body as sent to the API (the gateway forwards it unread). */
function eventsOf(body: Buffer): unknown {
  const parsed = parseClientJson(body.toString('utf8'), 'body');
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError('body: must be an object with `events`');
  if (!('events' in parsed)) throw new InvalidArgumentError('events: required');
  return parsed.events;
}

export function insightsHandlers(deps: Deps): Handlers<InsightsServiceServer> {
  return {
    async trackEvents(req, ctx) {
      // The reader reports its visitors' page views; other callers must be members.
      const fromReader = callsAsItself(ctx, 'reader');
      if (!fromReader) await requireMember(deps, req.organizationId, req.siteId, ctx);
      const rows = eventRows(eventsOf(req.bodyJson), { organizationId: req.organizationId, siteId: req.siteId, clientIp: req.clientIp, now: deps.now(), fromReader });
      await deps.publisher.publish(rows);
      return { count: rows.length };
    },

    async aggregateEvents(req, ctx) {
      await requireMember(deps, req.organizationId, req.siteId, ctx);
      const query = compileAggregation(aggregation(req), req, deps.now());
      const rows = await deps.store.aggregate(query);
      return presentAggregation(query, rows);
    },

    async listVisitorSegments(req, ctx) {
      await requireMember(deps, req.organizationId, req.siteId, ctx);
      const segments = await deps.store.segments(req.organizationId, req.siteId);
      return {
        items: segments.map((s) => {
          const claims = JSON.parse(s.claims) as Record<string, unknown>;
          return { title: segmentTitle(claims), claims, events: s.events, visitors: s.visitors, sessions: s.sessions };
        }),
      };
    },
  };
}
