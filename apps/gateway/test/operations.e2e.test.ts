import { running } from '@quire/service-kit/testing';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startGitServer } from '@quire/git-sync/testing';
import { metrics, startTracing } from '@quire/service-kit';
import { describe, expect, test } from 'vitest';
import { ok, startGateway, type OwnGateway } from './harness.ts';

// Operations over the real services: readiness that tells required from optional services, the
// Prometheus series of requests and RPCs, and traces from the gateway through the services to
// their databases and through a NATS job (the reader's own: apps/reader/test/telemetry.contract.test.ts).
const it = test.extend<{ traced: { g: OwnGateway; spans: InMemorySpanExporter }; stoppable: OwnGateway }>({
  // Tracing is the process's: on for this file alone, its spans kept in memory. Its own services,
  // started once tracing is on: a pool is traced from its start or never.
  traced: [
    async ({}, use) => {
      const spans = new InMemorySpanExporter();
      const stopTracing = await startTracing('gateway-test', { spanProcessors: [new SimpleSpanProcessor(spans)] });
      const g = await startGateway({}, { own: true });
      await use({ g, spans });
      await g.stop();
      await stopTracing?.();
    },
    { scope: 'file' },
  ],
  // Services of the test's own: it stops insights and orgs.
  stoppable: running(() => startGateway({}, { own: true })),
});

describe('metrics', () => {
  it('counts requests by route pattern and status, and RPCs by method and code, with latency histograms', async ({ traced: { g } }) => {
    const owner = await g.orgs.user('owner');
    const org = await g.orgs.organization(owner);
    await ok(g.call(owner, 'GET', `/v1/orgs/${org.id}`));
    expect((await g.call(owner, 'GET', '/v1/orgs/nope-404')).statusCode).toBe(404);
    const text = await metrics.metrics();
    expect(text).toMatch(/quire_http_request_duration_seconds_count\{method="GET",route="\/v1\/orgs\/:organizationId",status="200"\} [1-9]/);
    expect(text).toMatch(/quire_http_request_duration_seconds_count\{method="GET",route="\/v1\/orgs\/:organizationId",status="404"\} [1-9]/);
    expect(text).toMatch(/quire_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/orgs\/:organizationId",status="200"\}/);
    expect(text).toMatch(/quire_rpc_server_duration_seconds_count\{method="\w+",code="OK"\} [1-9]/);
    expect(text).toMatch(/quire_rpc_server_duration_seconds_count\{method="\w+",code="NOT_FOUND"\} [1-9]/);
    expect(text).toMatch(/quire_db_pool_connections\{database="quire_orgs_test_\w+",state="total"\} [1-9]/);
  });
});

describe('traces', () => {
  it('follow a request from the gateway through orgs to its database, continuing the caller’s trace', async ({ traced: { g, spans } }) => {
    const owner = await g.orgs.user('owner');
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    spans.reset();
    const res = await g.app.inject({ method: 'GET', url: '/v1/orgs', headers: { authorization: `Bearer ${owner.token}`, traceparent: `00-${traceId}-b7ad6b7169203331-01` } });
    expect(res.statusCode).toBe(200);
    const mine = spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const byId = new Map(mine.map((s) => [s.spanContext().spanId, s]));
    const http = mine.find((s) => s.name === 'GET /v1/orgs');
    expect(http?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    const client = mine.find((s) => s.name.startsWith('/quire.orgs.v1.OrgsService/'));
    expect(client && byId.get(client.parentSpanContext!.spanId)).toBe(http);
    const server = mine.find((s) => s.parentSpanContext?.spanId === client!.spanContext().spanId);
    expect(server?.attributes['rpc.system']).toBe('grpc');
    const query = mine.find((s) => s.name === 'pg.query' && s.parentSpanContext?.spanId === server!.spanContext().spanId);
    expect(query?.attributes['db.system']).toBe('postgresql');
  });
});

/** The spans of one trace, and a lookup of each one's parent. */
function traceOf(spans: InMemorySpanExporter, traceId: string) {
  const mine = spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const byId = new Map(mine.map((s) => [s.spanContext().spanId, s]));
  const parentOf = (s: ReadableSpan) => (s.parentSpanContext ? byId.get(s.parentSpanContext.spanId) : undefined);
  const childrenOf = (s: ReadableSpan) => mine.filter((c) => c.parentSpanContext?.spanId === s.spanContext().spanId);
  // The trace as an indented tree of names: the message of a failed expectation.
  const tree = (s?: ReadableSpan, depth = 0): string =>
    (s ? childrenOf(s) : mine.filter((m) => !parentOf(m))).map((c) => `${'  '.repeat(depth)}${c.name}\n${tree(c, depth + 1)}`).join('');
  return { mine, parentOf, childrenOf, tree };
}

describe('traces through services and jobs', () => {
  it('follow a Git import from the gateway through git-sync, content and orgs, onto the NATS job and the content calls the job makes', async ({ traced: { g, spans } }) => {
    const repos = await startGitServer();
    try {
      await repos.create('traced', { 'README.md': '# Traced\n\nHello.\n', 'SUMMARY.md': '# Table of contents\n\n* [Traced](README.md)\n' });
      const owner = await g.orgs.user('owner');
      const org = await g.orgs.organization(owner);
      const spaceId = (await ok(g.call(owner, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Docs' }), 201)).id as string;
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      spans.reset();
      const res = await g.app.inject({
        method: 'POST',
        url: `/v1/spaces/${spaceId}/git/import`,
        headers: { authorization: `Bearer ${owner.token}`, traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
        payload: { url: repos.url('traced'), ref: 'refs/heads/main' },
      });
      expect(res.statusCode, res.body).toBe(204);
      for (const until = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 100))) {
        const state = (await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/info`))).job?.state;
        if (state === 'done') break;
        if (state === 'failed' || Date.now() > until) throw new Error(`the import did not finish (${state})`);
      }
      // The job's span ends once the job's outcome is recorded, just after git/info shows it.
      for (const until = Date.now() + 5000; !traceOf(spans, traceId).mine.some((s) => s.name === 'git-sync job') && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 50));
      const t = traceOf(spans, traceId);
      const http = t.mine.find((s) => s.name === 'POST /v1/spaces/:spaceId/git/import');
      expect(http?.parentSpanContext?.spanId, t.tree()).toBe('00f067aa0ba902b7');
      // gateway → git-sync (its database too)
      const queueClient = t.mine.find((s) => s.name === '/quire.gitsync.v1.GitSyncService/ImportRepository' && t.parentOf(s) === http);
      const queueServer = queueClient && t.childrenOf(queueClient)[0];
      expect(queueServer?.attributes['rpc.system'], t.tree()).toBe('grpc');
      expect(
        t.childrenOf(queueServer!).some((s) => s.name === 'pg.query' && s.attributes['db.namespace'] === new URL(g.gitSync.databaseUrl).pathname.slice(1)),
        t.tree(),
      ).toBe(true);
      // git-sync → content → orgs (the space's permission, the caller's membership), each to its database
      const contentClient = t.childrenOf(queueServer!).find((s) => s.name.startsWith('/quire.content.v1.ContentService/'));
      const contentServer = contentClient && t.childrenOf(contentClient)[0];
      expect(
        t.childrenOf(contentServer!).some((s) => s.name === 'pg.query'),
        t.tree(),
      ).toBe(true);
      const orgsServer = t
        .childrenOf(contentServer!)
        .filter((s) => s.name.startsWith('/quire.orgs.v1.OrgsService/'))
        .flatMap(t.childrenOf)[0];
      expect(orgsServer?.attributes['rpc.system'], t.tree()).toBe('grpc');
      expect(
        t.childrenOf(orgsServer!).some((s) => s.name === 'pg.query' && s.attributes['db.system'] === 'postgresql'),
        t.tree(),
      ).toBe(true);
      // The job taken from NATS continues the trace of the call that queued it, and its content calls go on from there.
      const job = t.mine.find((s) => s.name === 'git-sync job');
      expect(job?.attributes['messaging.system'], t.tree()).toBe('nats');
      expect(t.parentOf(job!), t.tree()).toBe(queueServer);
      const create = t.childrenOf(job!).find((s) => s.name === '/quire.content.v1.SpaceContentService/CreateRevision');
      const createServer = create && t.childrenOf(create)[0];
      expect(
        t.childrenOf(createServer!).some((s) => s.name === 'pg.query'),
        t.tree(),
      ).toBe(true);
    } finally {
      await repos.stop();
    }
  });
});

describe('readiness', () => {
  it('stays ready when an optional service is away, and is not ready without a required one', async ({ stoppable: g }) => {
    expect(await ok(g.app.inject({ method: 'GET', url: '/readyz' }))).toMatchObject({ status: 'ready' });

    const owner = await g.orgs.user('owner');
    await g.insights.stop();
    g.insights.stop = async () => {};
    const degraded = await ok(g.app.inject({ method: 'GET', url: '/readyz' }));
    expect(degraded).toMatchObject({ status: 'degraded', services: { 'quire.insights.v1.InsightsService': 'unavailable', 'quire.orgs.v1.OrgsService': 'serving' } });
    await ok(g.call(owner, 'GET', '/v1/orgs'));

    await g.orgs.stop();
    g.orgs.stop = async () => {};
    const res = await g.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not ready', services: { 'quire.orgs.v1.OrgsService': 'unavailable' } });
  });
});
