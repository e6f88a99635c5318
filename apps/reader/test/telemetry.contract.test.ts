import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '@quire/service-kit';
import type { TestUser } from '@quire/orgs/testing';
import { ok } from '@quire/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, spaceWith, startReader } from './harness.ts';

// A page request to the reader is one trace: its HTTP span, the calls it makes to sites and
// content on both sides, the calls those make on (a member's session to orgs), and their
// databases' queries (the gateway's side: apps/gateway/test/operations.e2e.test.ts).
const spans = new InMemorySpanExporter();
let stopTracing: (() => Promise<void>) | undefined;
let h: Awaited<ReturnType<typeof startReader>>;
let owner: TestUser;
let base: string;
let privateBase: string;

beforeAll(async () => {
  stopTracing = await startTracing('reader-test', { spanProcessors: [new SimpleSpanProcessor(spans)] });
  // Its own services, started once tracing is: the shared stack's calls and queries were set up without it.
  h = await startReader({}, { own: true });
  owner = await h.g.orgs.user('owner');
  const orgId = (await h.g.orgs.organization(owner, [])).id;
  const spaceId = await spaceWith(h.g, owner, orgId, 'Guide', [page('Introduction', 'Start here.')]);
  const site = await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/sites`, { title: 'Traced', spaces: [spaceId] }), 201);
  await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/sites/${site.id}/publish`));
  base = `/${orgId}/${site.id}`;
  const internal = await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/sites`, { title: 'Internal', spaces: [spaceId] }), 201);
  await ok(h.g.call(owner, 'PATCH', `/v1/orgs/${orgId}/sites/${internal.id}`, { visibility: 'share-link' }));
  await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/sites/${internal.id}/publish`));
  privateBase = `/${orgId}/${internal.id}`;
}, 180_000);
afterAll(async () => {
  await h?.stop();
  await stopTracing?.();
});

/** The finished spans of one trace, and the children of a span. */
function traceOf(traceId: string) {
  const mine = spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  return { mine, childrenOf: (s: ReadableSpan) => mine.filter((c) => c.parentSpanContext?.spanId === s.spanContext().spanId) };
}

describe('traces of the reader', () => {
  it('follow a page from the reader through sites and content to their databases, continuing the caller’s trace', async () => {
    const traceId = '5b8efff798038103d269b633813fc60c';
    spans.reset();
    const res = await h.reader.app.inject({ method: 'GET', url: `${base}/introduction`, headers: { traceparent: `00-${traceId}-eee19b7ec3c1b174-01` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Start here.');
    const { mine, childrenOf } = traceOf(traceId);
    const http = mine.find((s) => s.attributes['http.request.method'] === 'GET');
    expect(http?.parentSpanContext?.spanId).toBe('eee19b7ec3c1b174');
    expect(http?.attributes['http.response.status_code']).toBe(200);
    // The page's document (its revision was read ahead when the site was published).
    for (const method of ['/quire.sites.v1.SitesService/ViewPublishedSite', '/quire.content.v1.SpaceContentService/GetPage']) {
      const client = childrenOf(http!).find((s) => s.name === method);
      expect(client, method).toBeDefined();
      const server = childrenOf(client!)[0];
      expect(server?.kind, method).toBe(SpanKind.SERVER);
      expect(server?.attributes['rpc.system'], method).toBe('grpc');
      expect(
        childrenOf(server!).some((s) => s.name === 'pg.query' && s.attributes['db.system'] === 'postgresql'),
        method,
      ).toBe(true);
    }
  });

  it('follow a member reading a private site through sites on to orgs, which checks the session', async () => {
    const signIn = await h.g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: owner.email, password: owner.password } });
    expect(signIn.statusCode, signIn.body).toBe(204);
    const session = signIn.cookies.find((c) => c.name === 'quire_session')!.value;
    const traceId = '0e8f2a3b4c5d6e7f8091a2b3c4d5e6f7';
    spans.reset();
    const res = await h.reader.app.inject({
      method: 'GET',
      url: `${privateBase}/introduction`,
      headers: { traceparent: `00-${traceId}-1a2b3c4d5e6f7081-01`, cookie: `quire_session=${session}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { mine, childrenOf } = traceOf(traceId);
    const http = mine.find((s) => s.parentSpanContext?.spanId === '1a2b3c4d5e6f7081');
    const view = childrenOf(http!).find((s) => s.name === '/quire.sites.v1.SitesService/ViewPublishedSite');
    const sites = view && childrenOf(view)[0];
    const authenticate = childrenOf(sites!).find((s) => s.name === '/quire.orgs.v1.OrgsService/AuthenticateSession');
    const orgs = authenticate && childrenOf(authenticate)[0];
    expect(orgs?.kind).toBe(SpanKind.SERVER);
    expect(childrenOf(orgs!).some((s) => s.name === 'pg.query' && s.attributes['db.system'] === 'postgresql')).toBe(true);
  });
});
