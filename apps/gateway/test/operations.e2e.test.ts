import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { metrics, startTracing } from '@quire/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startGateway } from './harness.ts';

// Operations over the real services: readiness that tells required from optional services, the
// Prometheus series of requests and RPCs, and one trace from the gateway through a service to
// its database.
let g: Awaited<ReturnType<typeof startGateway>>;
const spans = new InMemorySpanExporter();
let stopTracing: (() => Promise<void>) | undefined;

beforeAll(async () => {
  stopTracing = await startTracing('gateway-test', { spanProcessors: [new SimpleSpanProcessor(spans)] });
  g = await startGateway();
});
afterAll(async () => {
  await g?.stop();
  await stopTracing?.();
});

describe('metrics', () => {
  it('counts requests by route pattern and status, and RPCs by method and code, with latency histograms', async () => {
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
  it('follow a request from the gateway through orgs to its database, continuing the caller’s trace', async () => {
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

describe('readiness', () => {
  it('stays ready when an optional service is away, and is not ready without a required one', async () => {
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
