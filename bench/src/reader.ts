import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { CreateSiteRequest, SetSitePublishedRequest, Site } from '@quire/proto/sites';
import type { CreateRevisionRequest, PageContent, Revision } from '@quire/proto/space-content';
import { unaryCall } from '@quire/service-kit';
import { testIdentity } from '@quire/service-kit/testing';
import { writeResult } from './lib/results.ts';
import { startSiteServices } from './lib/site-services.ts';
import { connections, loadPaths, seconds, serverScript, start, startReaderSource, stopAll, waitForHttp } from './lib/load.ts';

// The reader on a 1,000-page published site: requests per second and latency of page loads
// (each connection walks all 1,000 pages), rendered pages cached, then right after a content
// change (every page rendered again once), against one @fastify/static process sending the same
// HTML files from disk, in the same run. Also the bytes of a first page view (HTML, CSS, JS:
// unzipped, and on the wire with gzip taken as browsers do).
// The services run in this process from source; the reader and the static server in their own.

const PAGES = 1000;
const READER_PORT = 18290;
const STATIC_PORT = 18291;

const services = await startSiteServices();
const { orgs, content, insights, sites, owner, orgId } = services;

const body = (i: number, version: string) =>
  `Page ${i} of the handbook (${version}). ${'Quire renders documentation for readers with care. '.repeat(12)}\n\n## Overview\n\n${'Every section explains one idea in plain words. '.repeat(10)}\n\n## Example\n\n\`\`\`ts\nexport function page${i}(input: string): number {\n  return input.length * ${i};\n}\n\`\`\`\n\n## Details\n\n- first point\n- second point\n- third point\n\n| name | value |\n|---|---|\n| a | ${i} |\n`;
const tree = (version: string): PageContent[] =>
  Array.from({ length: 50 }, (_, t) => ({
    id: '',
    type: 'document',
    fields: { title: `Chapter ${t + 1}` },
    markdown: body(t * 20, version),
    href: '',
    pages: Array.from({ length: 19 }, (_, c) => ({
      id: '',
      type: 'document',
      fields: { title: `Topic ${t + 1}.${c + 1}` },
      markdown: body(t * 20 + c + 1, version),
      href: '',
      pages: [],
    })),
  }));

const spaceId = (
  await content.call<CreateSpaceRequest, Space>(content.client.createSpace, { organizationId: orgId, title: 'Handbook', emoji: '', editMode: '', visibility: '' }, owner.id)
).id;
const setTree = (version: string) =>
  // 1,000 documents in one revision: longer than a read's deadline on a busy machine.
  unaryCall<CreateRevisionRequest, Revision>(
    content.spaceContent,
    content.spaceContent.createRevision,
    { spaceId, parentRevisionId: '', pages: tree(version), files: [], setActive: true, type: '' },
    { userId: owner.id, requestId: 'bench' },
    { identity: testIdentity('gateway'), audience: 'content' },
    300_000,
  );
await setTree('v1');
const site = await sites.call<CreateSiteRequest, Site>(
  sites.client.createSite,
  { organizationId: orgId, type: '', visibility: '', title: 'Handbook', spaceIds: [spaceId] },
  owner.id,
);
await sites.call<SetSitePublishedRequest, Site>(sites.client.setSitePublished, { site: { organizationId: orgId, siteId: site.id }, published: true }, owner.id);

const { url: readerUrl } = startReaderSource(READER_PORT, { orgs: orgs.address, content: content.address, sites: sites.address, insights: insights.address });
const base = `/${orgId}/${site.id}`;
// Started from source (tsx): slow to answer first on a busy machine.
await waitForHttp(`${readerUrl}${base}/`, {}, 180_000);

// Every page's path, from the sitemap; each fetched once (rendered into the cache) and saved for the static server.
const sitemap = await (await fetch(`${readerUrl}${base}/sitemap.xml`)).text();
const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
if (paths.length !== PAGES) throw new Error(`sitemap lists ${paths.length} pages`);
// The static copies are flat files (a page and its children's folder cannot share a name on disk).
const root = mkdtempSync(join(os.tmpdir(), 'quire-reader-bench-'));
const staticPaths = paths.map((_, i) => `/page-${i}.html`);
for (const [i, p] of paths.entries()) writeFileSync(join(root, staticPaths[i]!), await (await fetch(`${readerUrl}${p}`)).text());
start(serverScript('static-html'), { PORT: String(STATIC_PORT), STATIC_ROOT: root });
await waitForHttp(`http://127.0.0.1:${STATIC_PORT}${staticPaths[0]}`);

// First view: the page, its stylesheet and script, as a browser gets them (gzip taken): the bytes
// on the wire, and unzipped.
function wire(path: string) {
  return new Promise<{ wire: number; body: string }>((resolve, reject) =>
    get(`${readerUrl}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ wire: raw.length, body: (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString() });
      });
    }).on('error', reject),
  );
}
const page = await wire(paths[1]!);
const assets = [...page.body.matchAll(/(?:href|src)="(\/_reader\/[^"]+)"/g)].map((m) => m[1]!);
const assetBodies = await Promise.all(assets.map(wire));
const firstView = {
  requests: 1 + assets.length,
  htmlBytes: Buffer.byteLength(page.body),
  assetBytes: assetBodies.reduce((n, b) => n + Buffer.byteLength(b.body), 0),
  totalBytes: Buffer.byteLength(page.body) + assetBodies.reduce((n, b) => n + Buffer.byteLength(b.body), 0),
  wireBytes: page.wire + assetBodies.reduce((n, b) => n + b.wire, 0),
};

const load = (name: string, origin: string, duration: number, list = paths) => loadPaths(name, origin, list, duration);

const results = [];
await load('warm-up', readerUrl, 2);
results.push(await load('reader, cached', readerUrl, seconds));
await load('warm-up', `http://127.0.0.1:${STATIC_PORT}`, 2, staticPaths);
results.push(await load('@fastify/static, same HTML', `http://127.0.0.1:${STATIC_PORT}`, seconds, staticPaths));
await setTree('v2');
// The reader sees the new revision within READER_FRESHNESS_MS (1 s): every page is then rendered again.
await new Promise((r) => setTimeout(r, 1100));
results.push(await load('reader, after a change', readerUrl, seconds));
const check = await (await fetch(`${readerUrl}${paths[1]}`)).text();
if (!check.includes('(v2)')) throw new Error('the reader still shows the old revision');

const staticRps = results[1]!.rps;
const table = results.map((r) => ({ ...r, vsStatic: `${Math.round((r.rps / staticRps) * 100)}%` }));
console.table(table);
writeResult('reader', {
  date: new Date().toISOString(),
  pages: PAGES,
  connections,
  seconds,
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
  results: table,
  firstView,
});

await stopAll();
rmSync(root, { recursive: true, force: true });
await services.stop();
