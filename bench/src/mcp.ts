import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { CreateSiteRequest, SetSitePublishedRequest, Site } from '@quire/proto/sites';
import type { CreateRevisionRequest, PageContent, Revision } from '@quire/proto/space-content';
import { unaryCall } from '@quire/service-kit';
import { testIdentity } from '@quire/service-kit/testing';
import { percentiles, writeResult } from './lib/results.ts';
import { startSiteServices } from './lib/site-services.ts';
import { processCpuMs, startApp, stopAll, waitForHttp } from './lib/load.ts';

// A published site's MCP server on a space of BENCH_PAGES pages (20,000: 200 chapters of 99
// topics), the reader started from its bundle (`pnpm build` first), called with the official
// MCP client over loopback, one call at a time (BENCH_RUNS each, after a warm-up):
// searchDocumentation against the reader's own search page (`~search?q=`) with the same query
// (answered from the reader's cache of the revision's answers after the first), a new query each call,
// and getPage of pages already read (their revision and markdown cached) against the same pages'
// `.md`, in the same run. The services run in this process from source; the client in a thread of its own.

const PAGES = Number(process.env.BENCH_PAGES ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
// Warm-up calls: at least one per page getPage reads (chapter 1's 99 topics), so that every timed read is cached.
const WARMUP = 100;
const CHAPTERS = 200;
const PORT = 18292;

// Each page: a few sentences of common words and one rare word of its own, so that a query finds
// from one page ("rare") to most of them ("common").
const WORDS = 'install configure deploy service token access server release update version search index cache page team'.split(' ');
const markdown = (i: number) =>
  `Page ${i} explains how to ${WORDS[i % WORDS.length]} the ${WORDS[(i * 7) % WORDS.length]} with care.\n\n## Steps\n\n` +
  `Run the ${WORDS[(i * 3) % WORDS.length]} command, then check the ${WORDS[(i * 5) % WORDS.length]} (marker zq${i}x).\n`;
const doc = (title: string, i: number, pages: PageContent[] = []): PageContent => ({ id: '', type: 'document', fields: { title }, markdown: markdown(i), href: '', pages });
const perChapter = PAGES / CHAPTERS - 1;
const tree = Array.from({ length: CHAPTERS }, (_, c) =>
  doc(
    `Chapter ${c + 1}`,
    c * (perChapter + 1),
    Array.from({ length: perChapter }, (_, t) => doc(`Topic ${c + 1}.${t + 1}`, c * (perChapter + 1) + t + 1)),
  ),
);

const services = await startSiteServices();
const { orgs, content, insights, sites, owner, orgId } = services;
const spaceId = (
  await content.call<CreateSpaceRequest, Space>(content.client.createSpace, { organizationId: orgId, title: 'Handbook', emoji: '', editMode: '', visibility: '' }, owner.id)
).id;
const seeded = performance.now();
await unaryCall<CreateRevisionRequest, Revision>(
  content.spaceContent,
  content.spaceContent.createRevision,
  { spaceId, parentRevisionId: '', pages: tree, files: [], setActive: true, type: '' },
  { userId: owner.id, requestId: 'bench' },
  { identity: testIdentity('gateway'), audience: 'content' },
  1_800_000,
);
const seedMs = performance.now() - seeded;
const site = await sites.call<CreateSiteRequest, Site>(
  sites.client.createSite,
  { organizationId: orgId, type: '', visibility: '', title: 'Handbook', spaceIds: [spaceId] },
  owner.id,
);
await sites.call<SetSitePublishedRequest, Site>(sites.client.setSitePublished, { site: { organizationId: orgId, siteId: site.id }, published: true }, owner.id);

const origin = `http://127.0.0.1:${PORT}`;
const reader = startApp('reader', {
  READER_PORT: String(PORT),
  QUIRE_READER_URL: origin,
  ORGS_URL: orgs.address,
  CONTENT_URL: content.address,
  SITES_URL: sites.address,
  INSIGHTS_URL: insights.address,
  LOG_LEVEL: 'warn',
});
const base = `${origin}/${orgId}/${site.id}`;
await waitForHttp(`${base}/`, {}, 180_000);

// The client in a thread of its own (lib/mcp-caller.mjs), which times each call.
const caller = new Worker(new URL('./lib/mcp-caller.mjs', import.meta.url), { workerData: { url: `${base}/~gitbook/mcp` } });
const waiting = new Map<number, (m: { ms: number; text: string; error?: string }) => void>();
await new Promise<void>((ready, failed) => {
  caller.once('error', failed);
  caller.on('message', (m: { ready?: boolean; id: number; ms: number; text: string; error?: string }) => (m.ready ? ready() : waiting.get(m.id)?.(m)));
});
let asked = 0;
const ask = (question: { tool: string; args: Record<string, unknown> } | { url: string }) =>
  new Promise<{ ms: number; text: string }>((resolve, reject) => {
    const id = ++asked;
    waiting.set(id, (m) => {
      waiting.delete(id);
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    caller.postMessage({ id, ...question });
  });
const tool = (name: string, args: Record<string, unknown>) => ask({ tool: name, args });

// A revision this large is indexed for search in the background: the rare word of the last page is found once it is done.
const last = `zq${PAGES - 1}x`;
for (let i = 0; !(await tool('searchDocumentation', { query: last })).text.includes('URL:'); i++) {
  if (i > 1200) throw new Error('search never found the last page');
  await new Promise((r) => setTimeout(r, 500));
}
const indexedMs = performance.now() - seeded;

/**
 * RUNS calls of `call` one at a time after a warm-up, each checked, with their percentiles (as the
 * client's thread times them) and the CPU time per call of the reader and of this process (the
 * client and the services): what a call costs, which the load of a shared machine does not change
 * as it changes the latency. And how late the main thread's event loop ran (its p99 and max): how
 * long the services held it, which a client on that loop would have waited too.
 */
async function timed(name: string, call: (i: number) => Promise<{ ms: number; text: string }>, expect: RegExp) {
  for (let i = 0; i < WARMUP; i++) await call(i);
  const times: number[] = [];
  const cpu0 = { reader: processCpuMs(reader.pid!).all, bench: process.cpuUsage() };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  for (let i = 0; i < RUNS; i++) {
    const { ms, text: answer } = await call(i);
    times.push(ms);
    if (!expect.test(answer)) throw new Error(`${name}: unexpected answer ${answer.slice(0, 200)}`);
  }
  loop.disable();
  const perCall = (ms: number) => Math.round((ms / RUNS) * 100) / 100;
  const loopMs = (ns: number) => Math.round(ns / 1e5) / 10;
  const bench = process.cpuUsage(cpu0.bench);
  return {
    name,
    ...percentiles(times),
    readerCpuMs: perCall(processCpuMs(reader.pid!).all - cpu0.reader),
    benchCpuMs: perCall((bench.user + bench.system) / 1000),
    benchLoopDelayP99Ms: loopMs(loop.percentile(99)),
    benchLoopDelayMaxMs: loopMs(loop.max),
  };
}
const page = (url: string) => ask({ url });

const queries = { rare: `zq${Math.floor(PAGES * 0.6)}x`, common: 'deploy' };
const results = [];
for (const [kind, query] of Object.entries(queries)) {
  results.push(await timed(`searchDocumentation, ${kind} word`, () => tool('searchDocumentation', { query }), /^## /));
  results.push(await timed(`~search?q=, same query (baseline)`, () => page(`${base}/~search?q=${encodeURIComponent(query)}`), /<html/i));
}
// Each call a query not asked before (a rare word of its own page): what content's search costs the first time.
let fresh = 0;
results.push(await timed('searchDocumentation, a new rare word each call', () => tool('searchDocumentation', { query: `zq${fresh++}x` }), /^## /));
// Chapter 1's topics (their URLs as listPages names them), each read in the warm-up before the timed calls.
const topics = (await tool('listPages', {})).text
  .split('\n')
  .filter((l) => l.startsWith('- Topic 1.'))
  .map((l) => /: (\S+)/.exec(l)![1]!);
if (topics.length !== perChapter) throw new Error(`listPages names ${topics.length} topics of chapter 1`);
results.push(await timed('getPage, cached', (i) => tool('getPage', { url: topics[i % topics.length]! }), /^# Topic 1\./));
results.push(await timed('.md of the same pages (baseline)', (i) => page(`${topics[i % topics.length]}.md`), /^# Topic 1\./));

console.table(results);
writeResult('mcp', {
  date: new Date().toISOString(),
  pages: PAGES,
  runs: RUNS,
  seedSeconds: Math.round(seedMs / 100) / 10,
  indexedSeconds: Math.round(indexedMs / 100) / 10,
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
  results,
});

await caller.terminate();
await stopAll();
await services.stop();
