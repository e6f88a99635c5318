import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { list, ListOf, NoContent } from '../schemas/common.ts';
import { AggregateBody, AggregateResult, TrackEventsBody, VisitorSegment } from '../schemas/insights.ts';
import { SiteParams } from '../schemas/sites.ts';
import type { RouteDeps } from './context.ts';
import { operations } from './operation.ts';

const op = operations('site-insights');
const prefix = '/orgs/:organizationId/sites/:siteId/insights';

type Body = Static<typeof AggregateBody>;

/** The aggregation body as the service takes it: a filter's column and claim become one column. */
function aggregateRequest(body: Body) {
  return {
    select: body.select ?? [],
    where: (body.where ?? []).map((f) => ({ column: { column: f.column, claim: f.claim }, operator: f.operator, values: f.values })),
    groupBy: body.groupBy ?? [],
    order: body.order && { by: body.order.by, direction: body.order.direction },
    range: typeof body.range === 'string' ? { preset: body.range } : { custom: { from: new Date(body.range.from), to: new Date(body.range.to) } },
    limit: body.limit ?? 1000,
  };
}

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { insights } }) => {
  // The events route forwards its body as bytes: the insights service parses and checks the batch
  // once, naming the field at fault, where the gateway would parse, check and write up to 1000
  // events again (most of its cost per batch). Its body schema stays for the OpenAPI document.
  await app.register(async (scope) => {
    const raw = scope.withTypeProvider<TypeBoxTypeProvider>();
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    const compile = app.validatorCompiler!;
    raw.post(
      `${prefix}/events`,
      {
        // A full batch of 1000 events with long URLs and user agents is above the default limit.
        bodyLimit: 8 * 1024 * 1024,
        validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : compile(route)),
        ...op({
          operationId: 'trackEventsInSiteById',
          summary: 'Track site events (members of the organization); answers once the batch is stored',
          params: SiteParams,
          body: TrackEventsBody,
          response: { 204: NoContent },
        }),
      },
      async (req, reply) => {
        const { organizationId, siteId } = req.params;
        const bodyJson = req.body as unknown as Buffer;
        await insights.trackEvents({ organizationId, siteId, bodyJson, clientIp: req.ip }, req.caller);
        return reply.code(204).send();
      },
    );
  });

  app.post(
    `${prefix}/events/aggregate`,
    op({
      operationId: 'aggregateSiteEvents',
      summary: 'Query site events: columns, filters, groups, order, range and limit',
      params: SiteParams,
      body: AggregateBody,
      response: { 200: AggregateResult },
    }),
    async (req) => {
      const { organizationId, siteId } = req.params;
      const res = await insights.aggregateEvents({ organizationId, siteId, ...aggregateRequest(req.body) }, req.caller);
      return { columns: res.columns.map((c) => ({ column: c.column, ...(c.claim !== undefined ? { claim: c.claim } : {}), values: c.values ?? [] })) };
    },
  );

  app.get(
    `${prefix}/visitor-segments`,
    op({
      operationId: 'listSiteVisitorSegments',
      summary: "List a site's visitor segments: visitors grouped by their claims",
      params: SiteParams,
      response: { 200: ListOf(VisitorSegment) },
    }),
    async (req) => {
      const { organizationId, siteId } = req.params;
      const { items } = await insights.listVisitorSegments({ organizationId, siteId }, req.caller);
      return list(
        items.map((s) => ({ title: s.title, claims: s.claims ?? {}, events: s.events, visitors: s.visitors, sessions: s.sessions })),
        undefined,
      );
    },
  );
};

export default routes;
