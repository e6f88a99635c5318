import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { CreateSiteRequest, SetSitePublishedRequest, Site } from '@quire/proto/sites';
import type { CreateRevisionRequest, PutBlobsRequest, PutBlobsResponse, Revision } from '@quire/proto/space-content';
import { unaryCall } from '@quire/service-kit';
import { testIdentity } from '@quire/service-kit/testing';
import { startSiteServices } from './lib/site-services.ts';
import { writeResult } from './lib/results.ts';
import { connections, loadPaths, processCpuMs, seconds, serverScript, start, startReaderSource, stopAll, waitForHttp } from './lib/load.ts';

// The reader's API reference: a page of 10 operations of one generated 5 MB spec (a file of the
// space). The site is published while the reader runs; the reader, told so by the site's event,
// reads the spec ahead (how long from the publish: `readAheadMs`); then the page's first view (its
// 10 operations drawn) is timed, then requests per second of the rendered page, against
// @fastify/static sending the same HTML, in the same run. The services run in this process from source; the reader and the static server
// in their own.

const READER_PORT = 18492;
const STATIC_PORT = 18493;
const OPERATIONS = 10;

/** A spec of `n` resources, each a schema of 12 fields (one a link to the next) and 2 operations. */
function spec(n: number): string {
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const properties: Record<string, unknown> = { next: { $ref: `#/components/schemas/Resource${(i + 1) % n}` } };
    for (let f = 0; f < 11; f++)
      properties[`field${f}`] = {
        type: f % 3 ? 'string' : 'integer',
        description: `Field ${f} of resource ${i}: what it holds and when it changes.`,
        example: f % 3 ? `value ${f}` : f,
      };
    schemas[`Resource${i}`] = { type: 'object', required: ['field0'], properties };
    const ref = { $ref: `#/components/schemas/Resource${i}` };
    paths[`/resources${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        summary: `Get resource ${i}`,
        parameters: [{ name: 'expand', in: 'query', schema: { type: 'boolean' } }],
        responses: { '200': { description: 'The resource', content: { 'application/json': { schema: ref } } } },
      },
      post: {
        summary: `Change resource ${i}`,
        requestBody: { content: { 'application/json': { schema: ref } } },
        responses: { '200': { description: 'Changed', content: { 'application/json': { schema: ref } } } },
      },
    };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Generated', version: '1' }, servers: [{ url: 'https://api.example.com' }], paths, components: { schemas } });
}

let text = spec(1000);
text = spec(Math.round((1000 * 5 * 1024 * 1024) / Buffer.byteLength(text)));

const services = await startSiteServices();
const { orgs, content, insights, sites, owner, orgId } = services;
const asOwner = <Req, Res>(method: Parameters<typeof unaryCall<Req, Res>>[1], request: Req) =>
  unaryCall<Req, Res>(content.spaceContent, method, request, { userId: owner.id, requestId: 'bench' }, { identity: testIdentity('gateway'), audience: 'content' }, 300_000);

const spaceId = (
  await content.call<CreateSpaceRequest, Space>(content.client.createSpace, { organizationId: orgId, title: 'API', emoji: '', editMode: '', visibility: '' }, owner.id)
).id;
const { blob } = (await asOwner<PutBlobsRequest, PutBlobsResponse>(content.spaceContent.putBlobs, { data: [Buffer.from(text)] })).blobs[0]!;
const blocks = Array.from(
  { length: OPERATIONS },
  (_, i) => `{% openapi src="api.json" path="/resources${i * 7}/{id}" method="${i % 2 ? 'get' : 'post'}" %}\n[api.json](api.json)\n{% endopenapi %}`,
);
await asOwner<CreateRevisionRequest, Revision>(content.spaceContent.createRevision, {
  spaceId,
  parentRevisionId: '',
  pages: [{ id: '', type: 'document', fields: { title: 'Reference' }, markdown: blocks.join('\n\n'), href: '', pages: [] }],
  files: [{ id: 'api', name: 'api.json', contentType: 'application/json', blob }],
  setActive: true,
  type: '',
});
const site = await sites.call<CreateSiteRequest, Site>(sites.client.createSite, { organizationId: orgId, type: '', visibility: '', title: 'API', spaceIds: [spaceId] }, owner.id);

// The reader is up before the site is published, and has read nothing of it.
const { url: readerUrl, child: readerProcess } = startReaderSource(READER_PORT, {
  orgs: orgs.address,
  content: content.address,
  sites: sites.address,
  insights: insights.address,
  eventsPrefix: orgs.config.EVENTS_SUBJECT_PREFIX,
});
const readerMetrics = `http://127.0.0.1:${READER_PORT + 1000}/metrics`;
await waitForHttp(`${readerUrl}/healthz`, {}, 180_000);
await waitForHttp(readerMetrics);

/** Spec files the reader has read ahead so far (its metrics). */
const specsReadAhead = async () => {
  const metrics = await (await fetch(readerMetrics)).text();
  return Number(/^quire_reader_openapi_specs_read_ahead_total\{outcome="spec"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
};
const before = await specsReadAhead();
const published = performance.now();
await sites.call<SetSitePublishedRequest, Site>(sites.client.setSitePublished, { site: { organizationId: orgId, siteId: site.id }, published: true }, owner.id);
// Told of the publish, the reader reads the site's spec ahead; a visitor comes once it has.
for (const deadline = published + 120_000; (await specsReadAhead()) === before;) {
  if (performance.now() > deadline) throw new Error('the reader read no spec ahead of the publish');
  await new Promise((r) => setTimeout(r, 20));
}
const readAheadMs = Math.round(performance.now() - published);

// The page's first view: the first request of the site the reader answers.
const path = `/${orgId}/${site.id}/reference`;
const cpu0 = processCpuMs(readerProcess.pid!).main;
const t0 = performance.now();
const html = await (await fetch(`${readerUrl}${path}`)).text();
const firstRenderMs = Math.round(performance.now() - t0);
// What the load does not change: the reader's JavaScript thread's CPU time for it (10 ms ticks).
const firstRenderCpuMs = Math.round(processCpuMs(readerProcess.pid!).main - cpu0);
const drawn = html.split('class="oa-op"').length - 1;
if (drawn !== OPERATIONS) throw new Error(`the page shows ${drawn} operations`);

const root = mkdtempSync(join(os.tmpdir(), 'quire-reader-openapi-bench-'));
writeFileSync(join(root, 'reference.html'), html);
start(serverScript('static-html'), { PORT: String(STATIC_PORT), STATIC_ROOT: root });
await waitForHttp(`http://127.0.0.1:${STATIC_PORT}/reference.html`);

const load = (name: string, origin: string, p: string, duration: number) => loadPaths(name, origin, [p], duration);

await load('warm-up', readerUrl, path, 2);
const reader = await load('reader, cached', readerUrl, path, seconds);
await load('warm-up', `http://127.0.0.1:${STATIC_PORT}`, '/reference.html', 2);
const fixed = await load('@fastify/static, same HTML', `http://127.0.0.1:${STATIC_PORT}`, '/reference.html', seconds);
const table = [reader, fixed].map((r) => ({ ...r, vsStatic: `${Math.round((r.rps / fixed.rps) * 100)}%` }));
console.table(table);
console.log({ specBytes: Buffer.byteLength(text), operations: OPERATIONS, readAheadMs, firstRenderMs, firstRenderCpuMs, htmlBytes: Buffer.byteLength(html) });
writeResult('reader-openapi', {
  date: new Date().toISOString(),
  specBytes: Buffer.byteLength(text),
  operations: OPERATIONS,
  readAheadMs,
  firstRenderMs,
  firstRenderCpuMs,
  htmlBytes: Buffer.byteLength(html),
  connections,
  seconds,
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
  results: table,
});

await stopAll();
rmSync(root, { recursive: true, force: true });
await services.stop();
