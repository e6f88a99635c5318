import os from 'node:os';
import { writeResult, percentiles } from './lib/results.ts';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrateTemplate } from '@quire/service-kit/testing';
import { startContent } from '@quire/content/testing';
import { startOrgs } from '@quire/orgs/testing';
import { identitySettings, start, stopAll, waitForHttp } from './lib/load.ts';

// Full-text search over a large space: SearchSpace on one space of BENCH_PAGES pages (20,000) and
// SearchOrganization over it and four more spaces (BENCH_PAGES / 20 pages each), through the
// real content gRPC service and PostgreSQL, one call at a time. Two-word queries with few matches
// (a rare word: a few sections), with many (thousands of sections) and with words found nearly
// everywhere. The machine's load average is recorded with the figures: they are latencies.
// The index is seeded with SQL as indexDocuments writes it (sections with weighted tsvectors,
// SpacePage rows), in batches: parsing 20,000 markdown documents would only measure remark.
// The same queries are then sent through the gateway (from source, HTTP on 127.0.0.1:18195).

const PAGES = Number(process.env.BENCH_PAGES ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 20;
const SECTIONS_PER_PAGE = 5;
const WORDS_PER_SECTION = 90;

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// English-like prose: common documentation words drawn with a Zipf law, and a long tail of made-up
// words (product names, identifiers) that each appear in a few sections only.
const COMMON = `system user data service server request file page space team access setting option value token
  account project update install configure deploy build release version change support feature error message
  query result search index content document section link image table list field record event log metric
  report policy role member group organization permission security network cluster node storage database
  cache memory process thread queue worker job task schedule trigger webhook integration plugin module package
  library function method class object interface type schema model view template component layout theme style
  color font icon button form input output format export import backup restore migration upgrade rollback
  monitor alert dashboard chart graph trace debug test check validate verify review approve merge branch commit
  history revision draft publish share invite comment reply mention notify email domain host address port
  protocol certificate key secret password session cookie header body response status code limit quota usage
  billing plan invoice payment customer order product price discount region zone instance container image volume`
  .split(/\s+/)
  .filter(Boolean);
const FILLER = 'the a of to and in is for that with on as it by this be are from at or an can will your you when which'.split(' ');
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tos', 'vel', 'dra', 'quin', 'sor', 'pel', 'zan', 'bri', 'tum', 'gor', 'fex', 'hal', 'nix', 'ost', 'ura', 'wik'];
// Each made-up word: its index written in syllables, so all 20,000 differ.
const TAIL = Array.from({ length: 20_000 }, (_, i) => {
  let w = '';
  for (let n = i; w.length < 6 || n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return w;
});

let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
// Zipf over the common words: rank r drawn with weight 1/r.
const zipf = (() => {
  const weights = COMMON.map((_, r) => 1 / (r + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);
  return () => {
    const x = random();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return COMMON[lo]!;
  };
})();
const word = () => {
  const x = random();
  if (x < 0.45) return FILLER[Math.floor(random() * FILLER.length)]!;
  if (x < 0.93) return zipf();
  return TAIL[Math.floor(random() * TAIL.length)]!;
};
function sentence() {
  const n = 8 + Math.floor(random() * 12);
  const words = Array.from({ length: n }, word);
  return words[0]![0]!.toUpperCase() + words.join(' ').slice(1) + '.';
}
const prose = (words: number) => {
  const out: string[] = [];
  for (let count = 0; count < words; ) {
    const s = sentence();
    out.push(s);
    count += s.split(' ').length;
  }
  return out.join(' ');
};
const titleOf = (n: number) => Array.from({ length: n }, () => zipf()).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');

const dropTemplates = await Promise.all([migrateTemplate('orgs', here('../../apps/orgs')), migrateTemplate('content', here('../../apps/content'))]);
const orgs = await startOrgs();
const content = await startContent(orgs.address);
const db = new pg.Client({ connectionString: content.databaseUrl });
await db.connect();

/** Seeds `pages` pages into the space: SpacePage rows and their documents' sections, 1,000 pages a statement. */
async function seedSpace(spaceId: string, pages: number, prefix: string) {
  for (let start = 0; start < pages; start += 1000) {
    const page = { id: [] as string[], doc: [] as string[], title: [] as string[], path: [] as string[] };
    const sec = { doc: [] as string[], pos: [] as number[], anchor: [] as string[], title: [] as string[], body: [] as string[] };
    for (let i = start; i < Math.min(pages, start + 1000); i++) {
      const doc = `${prefix}-doc-${i}`;
      const title = titleOf(2 + Math.floor(random() * 2));
      page.id.push(`${prefix}-p${i}`);
      page.doc.push(doc);
      page.title.push(title);
      page.path.push(`${title.toLowerCase().replace(/ /g, '-')}-${i}`);
      for (let s = 0; s < SECTIONS_PER_PAGE; s++) {
        const heading = s === 0 ? '' : titleOf(2 + Math.floor(random() * 3));
        sec.doc.push(doc);
        sec.pos.push(s);
        sec.anchor.push(heading.toLowerCase().replace(/ /g, '-'));
        sec.title.push(heading);
        sec.body.push(prose(WORDS_PER_SECTION));
      }
    }
    await db.query(
      `INSERT INTO "DocumentSection" ("documentId", position, anchor, title, body, search)
       SELECT d, p, a, t, b, setweight(to_tsvector('english', t), 'A') || setweight(to_tsvector('english', b), 'B')
       FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[]) AS u(d, p, a, t, b)`,
      [sec.doc, sec.pos, sec.anchor, sec.title, sec.body],
    );
    await db.query(
      `INSERT INTO "SpacePage" ("spaceId", "pageId", "documentId", title, path) SELECT $1, p, d, t, pa FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(p, d, t, pa)`,
      [spaceId, page.id, page.doc, page.title, page.path],
    );
  }
}


try {
  const owner = await orgs.user('owner');
  const org = await orgs.organization(owner, [], 'Bench');
  const createSpace = (title: string) => content.call(content.client.createSpace, { organizationId: org.id, title, emoji: '', editMode: '', visibility: '' }, owner.id) as Promise<{ id: string }>;
  const big = await createSpace('Big');
  const others = await Promise.all([1, 2, 3, 4].map((n) => createSpace(`Other ${n}`)));
  const t0 = performance.now();
  await seedSpace(big.id, PAGES, 'big');
  for (const [n, s] of others.entries()) await seedSpace(s.id, PAGES / 20, `o${n}`);
  await db.query('VACUUM ANALYZE "DocumentSection"');
  await db.query('VACUUM ANALYZE "SpacePage"');
  const seedMs = performance.now() - t0;
  const sections = Number((await db.query('SELECT count(*) FROM "DocumentSection"')).rows[0].count);

  // Matches per query, to show what "few" and "many" mean here.
  const matches = async (q: string) =>
    Number((await db.query(`SELECT count(*) FROM "DocumentSection" WHERE search @@ websearch_to_tsquery('english', $1)`, [q])).rows[0].count);
  // Few: a made-up word (in a few dozen sections) and a common word of one of those sections.
  const { rows: samples } = await db.query<{ body: string }>(`SELECT body FROM "DocumentSection" TABLESAMPLE BERNOULLI (1) REPEATABLE (7) LIMIT 20`);
  const tail = new Set(TAIL);
  const few = samples.map(({ body }) => {
    const words = body.toLowerCase().split(/[^a-z0-9]+/);
    return `${words.find((w) => tail.has(w))} ${words.find((w) => COMMON.includes(w))}`;
  });
  // Many: two words of rank 20 to 40 (each in about a quarter of the sections). All: two of the
  // five most common words, found in nearly every section (ranked from the first 5,000 found).
  const pairs = (words: string[]) => Array.from({ length: 20 }, (_, i) => `${words[i % words.length]} ${words[(i * 7 + 3) % words.length]}`);
  const many = pairs(COMMON.slice(20, 40));
  const all = pairs(COMMON.slice(0, 5)).filter((q) => q.split(' ')[0] !== q.split(' ')[1]);
  const count = async (queries: string[]) => {
    const n = await Promise.all(queries.slice(0, 5).map(matches));
    return { min: Math.min(...n), max: Math.max(...n) };
  };
  const matchingSections = { few: await count(few), many: await count(many), all: await count(all) };

  async function measure(call: (query: string) => Promise<unknown>, queries: string[]) {
    const times: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const start = performance.now();
      await call(queries[i % queries.length]!);
      if (i >= WARMUP) times.push(performance.now() - start);
    }
    return percentiles(times);
  }
  const space = (query: string) => content.callContent(content.spaceContent.searchSpace, { spaceId: big.id, query }, owner.id);
  const organization = (query: string) => content.callContent(content.spaceContent.searchOrganization, { organizationId: org.id, query }, owner.id);

  const gateway = 'http://127.0.0.1:18195';
  start(fileURLToPath(new URL('../../apps/gateway/src/main.ts', import.meta.url)), {
    ...identitySettings('gateway'),
    PORT: '18195',
    ORGS_URL: orgs.address,
    CONTENT_URL: content.address,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const headers = { authorization: `Bearer ${owner.token}` };
  await waitForHttp(`${gateway}/v1/spaces/${big.id}/search?query=system`, headers);
  const http = (path: string) => async (query: string) => {
    const res = await fetch(`${gateway}${path}?query=${encodeURIComponent(query)}`, { headers });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const spaceHttp = http(`/v1/spaces/${big.id}/search`);
  const organizationHttp = http(`/v1/orgs/${org.id}/search`);

  const result = {
    bench: 'content-search',
    date: new Date().toISOString(),
    pages: { searchSpace: PAGES, searchOrganization: PAGES + (PAGES / 20) * 4 },
    sections,
    seedMs: Math.round(seedMs),
    runs: RUNS,
    matchingSections,
    searchSpaceMs: { few: await measure(space, few), many: await measure(space, many), all: await measure(space, all) },
    searchOrganizationMs: { few: await measure(organization, few), many: await measure(organization, many), all: await measure(organization, all) },
    gatewaySpaceSearchMs: { few: await measure(spaceHttp, few), many: await measure(spaceHttp, many), all: await measure(spaceHttp, all) },
    gatewayOrganizationSearchMs: { few: await measure(organizationHttp, few), many: await measure(organizationHttp, many), all: await measure(organizationHttp, all) },
    // The same call path without search: GetSpace (the space, the caller's membership from orgs, its grants).
    baselineGetSpaceMs: await measure(() => content.call(content.client.getSpace, { spaceId: big.id }, owner.id), ['']),
    loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
  };
  console.log(JSON.stringify(result, null, 2));
  for (const [name, r] of [
    ['SearchSpace, few matches', result.searchSpaceMs.few],
    ['SearchSpace, many matches', result.searchSpaceMs.many],
    ['SearchSpace, common words everywhere', result.searchSpaceMs.all],
    ['SearchOrganization, few matches', result.searchOrganizationMs.few],
    ['SearchOrganization, many matches', result.searchOrganizationMs.many],
    ['SearchOrganization, common words everywhere', result.searchOrganizationMs.all],
    ['GET /v1/spaces/{id}/search, many matches', result.gatewaySpaceSearchMs.many],
    ['GET /v1/orgs/{id}/search, many matches', result.gatewayOrganizationSearchMs.many],
    ['GetSpace (no search), for comparison', result.baselineGetSpaceMs],
  ] as const)
    console.log(`${name}: p50 ${r.p50} ms, p99 ${r.p99} ms (target p99 < 50 ms)`);
  writeResult('content-search', result);
} finally {
  stopAll();
  await db.end();
  await content.stop();
  await orgs.stop();
  await Promise.all(dropTemplates.map((drop) => drop()));
}
