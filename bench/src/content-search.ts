import os from 'node:os';
import { writeResult, percentiles } from './lib/results.ts';
import pg from 'pg';
import { reindexSearch, syncSpacePages, writeDocuments } from '@quire/content/testing';
import { freshDatabases, seedOwner, startContentApps, startGatewayApp } from './lib/deployed.ts';
import { processCpuMs, waitForHttp } from './lib/load.ts';

// Full-text search over a large space: SearchSpace on one space of BENCH_PAGES pages (20,000) and
// SearchOrganization over it and four more spaces (BENCH_PAGES / 20 pages each), through the
// real content gRPC service (its built bundle, its own process, as deployed) and PostgreSQL, one
// call at a time. Two-word queries with few matches
// (a rare word: a few sections), with many (thousands of sections) and with words found nearly
// everywhere. One page in four of the big space is in another language (Russian, Greek, French,
// Chinese, Japanese, 1,000 pages each): a common word queried in another inflection or without
// its accents, and a rare one, each counting the pages found. The machine's load average is
// recorded with the figures: they are latencies.
// Pages are stored and indexed as content does (writeDocuments, syncSpacePages, then its indexer's
// statements, as batches this large are left to it), from this process into content's database:
// markdown with GitBook blocks, read into the document model, whose text is what search indexes.
// The same queries are then sent through the gateway (its bundle, HTTP).
// BENCH_PAGES sizes the big space (20,000; smaller while developing), BENCH_RUNS the calls per
// row; BENCH_KEEP_DATABASE=1 leaves the seeded database in place (its URL printed last), to
// profile the queries (EXPLAIN) after the run.

const PAGES = Number(process.env.BENCH_PAGES ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const WARMUP = 20;
const SECTIONS_PER_PAGE = 5;
const WORDS_PER_SECTION = 90;

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

// mulberry32: a linear congruential generator in doubles loses its low bits past 2^53 and repeats.
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
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
  for (let count = 0; count < words;) {
    const s = sentence();
    out.push(s);
    count += s.split(' ').length;
  }
  return out.join(' ');
};
const titleOf = (n: number) =>
  Array.from({ length: n }, () => zipf())
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

// The other languages: words in several inflections (or accented), function words, and a tail of
// made-up words from the language's syllables, each in a few sections. CJK is written without
// spaces between words.
interface Language {
  name: string;
  words: string[];
  filler: string[];
  syllables: string[];
  spaced: boolean;
  stop: string;
  /** A common word, asked in a form the pages also use in others (or without its accents). */
  common: string[];
}
const LANGUAGES: Language[] = [
  {
    name: 'russian',
    words: `сервер сервера серверу сервером сервере серверы серверов файл файла файлу файлом файлы файлов пользователь пользователя пользователю пользователи пользователей
      настройка настройки настройке настройку настроек ошибка ошибки ошибку ошибок запрос запроса запросы запросов доступ доступа доступом проект проекта проекты`
      .split(/\s+/)
      .filter(Boolean),
    filler: 'и в на с для по не это как при'.split(' '),
    syllables: ['ка', 'ло', 'ми', 'рен', 'тос', 'вел', 'дра', 'кви', 'сор', 'пел', 'зан', 'бри', 'тум', 'гор', 'фек', 'хал', 'ник', 'ост', 'ура', 'вик'],
    spaced: true,
    stop: '.',
    common: ['серверов', 'пользователям', 'ошибками запросом'],
  },
  {
    name: 'greek',
    words: `διακομιστής διακομιστή διακομιστές διακομιστών χρήστης χρήστη χρήστες χρηστών αρχείο αρχείου αρχεία αρχείων ρύθμιση ρύθμισης ρυθμίσεις ρυθμίσεων
      δεδομένα δεδομένων σφάλμα σφάλματος σφάλματα αίτημα αιτήματος αιτήματα`
      .split(/\s+/)
      .filter(Boolean),
    filler: 'και το η ο του της για με σε από'.split(' '),
    syllables: ['κα', 'λο', 'μι', 'ρεν', 'τος', 'βελ', 'δρα', 'κιν', 'σορ', 'πελ', 'ζαν', 'βρι', 'τυμ', 'γορ', 'φεξ', 'χαλ', 'νιξ', 'οστ', 'ουρ', 'βικ'],
    spaced: true,
    stop: '.',
    common: ['διακομιστές', 'χρήστης', 'ρυθμίσεις αρχείων'],
  },
  {
    name: 'french',
    words: `café cafés équipe équipes données réseau réseaux sécurité serveur serveurs utilisateur utilisateurs fichier fichiers paramètre paramètres
      créé créer déployé déploiement mise jour élevé accès requête requêtes erreur erreurs`
      .split(/\s+/)
      .filter(Boolean),
    filler: 'le la les et des est une du pour dans que avec sur'.split(' '),
    syllables: ['ka', 'lo', 'mé', 'ren', 'tôs', 'vel', 'dra', 'quin', 'sor', 'pél', 'zan', 'bri', 'tum', 'gor', 'fex', 'hal', 'nix', 'ost', 'ura', 'wik'],
    spaced: true,
    stop: '.',
    common: ['cafe', 'equipe donnees', 'securite reseau'],
  },
  {
    name: 'chinese',
    words: '测试 服务器 数据 用户 系统 文件 配置 网络 安全 管理 部署 更新 版本 错误 日志 请求 权限 项目 团队 空间'.split(' '),
    filler: '的 是 在 和 了 一个 我们 可以 进行 需要'.split(' '),
    syllables: ['璇', '琮', '瑾', '璞', '珩', '瑜', '琛', '璐', '瑶', '琪', '珂', '瑛', '琬', '璟', '玥', '琰', '瑄', '珞', '璘', '瑗'],
    spaced: false,
    stop: '。',
    common: ['测试', '服务器', '数据 安全'],
  },
  {
    name: 'japanese',
    words: 'テスト サーバー データ ユーザー ファイル システム ネットワーク セキュリティ 設定 実行 確認 更新 管理 エラー ログ'.split(' '),
    filler: 'の を に は が で と します です ます'.split(' '),
    syllables: ['ガ', 'ゾ', 'ヌ', 'ペ', 'ヴ', 'ヂ', 'ボ', 'ゼ', 'ピ', 'ヅ', 'ゲ', 'ヰ', 'ヱ', 'ヲ', 'ザ', 'ジ', 'ズ', 'ダ', 'ド', 'ブ'],
    spaced: false,
    stop: '。',
    common: ['テスト', 'サーバー', 'ユーザー 設定'],
  },
];
const tailOf = (l: Language) =>
  Array.from({ length: 500 }, (_, i) => {
    let w = '';
    for (let n = i; [...w].length < (l.spaced ? 6 : 3) || n > 0; n = Math.floor(n / l.syllables.length)) w += l.syllables[n % l.syllables.length];
    return w;
  });
const TAILS = new Map(LANGUAGES.map((l) => [l.name, tailOf(l)]));
function languageProse(l: Language, words: number) {
  const tail = TAILS.get(l.name)!;
  const pick = () => {
    const x = random();
    if (x < 0.4) return l.filler[Math.floor(random() * l.filler.length)]!;
    if (x < 0.95) return l.words[Math.floor(random() * l.words.length)]!;
    return tail[Math.floor(random() * tail.length)]!;
  };
  const out: string[] = [];
  for (let count = 0; count < words;) {
    const n = 8 + Math.floor(random() * 12);
    const sentence = Array.from({ length: n }, pick);
    out.push(sentence.join(l.spaced ? ' ' : '') + l.stop);
    count += n;
  }
  return out.join(l.spaced ? ' ' : '');
}

// One page in BLOCK has a hint around a section's text: its tags are not text, its text is.
const BLOCK = 7;
/** A page's markdown: text before the first heading and SECTIONS_PER_PAGE - 1 headed sections. */
function markdown(i: number, language: Language | undefined) {
  const body = () => (language ? languageProse(language, WORDS_PER_SECTION) : prose(WORDS_PER_SECTION));
  const heading = () => (language ? languageProse(language, 3).replace(/[.。]/g, '') : titleOf(2 + Math.floor(random() * 3)));
  const parts = [body()];
  for (let s = 1; s < SECTIONS_PER_PAGE; s++) parts.push(`## ${heading()}`, s === 1 && i % BLOCK === 0 ? `{% hint style="info" %}\n${body()}\n{% endhint %}` : body());
  return parts.join('\n\n') + '\n';
}
/** The big space's page `i`: one in four in another language, in turn. */
const languageOf = (i: number) => (i % 4 === 0 ? LANGUAGES[(i / 4) % LANGUAGES.length] : undefined);

const keep = process.env.BENCH_KEEP_DATABASE === '1';
const databases = await freshDatabases(['orgs', 'content'], keep ? ['content'] : []);
const { owner, org } = await seedOwner(databases.urls.orgs, 'bench-search');
const content = await startContentApps(databases.urls);
const db = new pg.Client({ connectionString: databases.urls.content });
await db.connect();
const sql = async <R>(text: string, values: unknown[]) => (await db.query(text, values)).rows as R[];

/** Seeds `pages` pages into the space as content stores and indexes them, 500 documents a batch. */
async function seedSpace(spaceId: string, pages: number, prefix: string, languages: boolean) {
  const entries: { pageId: string; documentId: string; title: string; path: string }[] = [];
  for (let start = 0; start < pages; start += 500) {
    const docs: { id: string; markdown: string }[] = [];
    for (let i = start; i < Math.min(pages, start + 500); i++) {
      const language = languages ? languageOf(i) : undefined;
      const title = language ? languageProse(language, 2).replace(/[.。]/g, '') : titleOf(2 + Math.floor(random() * 2));
      docs.push({ id: `${prefix}-doc-${i}`, markdown: markdown(i, language) });
      entries.push({ pageId: `${prefix}-p${i}`, documentId: `${prefix}-doc-${i}`, title, path: `page-${i}` });
    }
    await writeDocuments(sql, docs);
  }
  await syncSpacePages(sql, spaceId, entries);
}

try {
  const createSpace = async (title: string) => ({ id: await content.createSpace(org.id, owner.id, title) });
  const big = await createSpace('Big');
  const others = await Promise.all([1, 2, 3, 4].map((n) => createSpace(`Other ${n}`)));
  const t0 = performance.now();
  await seedSpace(big.id, PAGES, 'big', true);
  for (const [n, s] of others.entries()) await seedSpace(s.id, PAGES / 20, `o${n}`, false);
  await reindexSearch(sql);
  // The database as it settles after a load: every seeded table vacuumed and analyzed and the
  // writes checkpointed, so that neither autovacuum nor a checkpoint runs among the timed calls.
  for (const table of ['Document', 'DocumentSection', 'DocumentLink', 'SpacePage']) await db.query(`VACUUM ANALYZE "${table}"`);
  await db.query('CHECKPOINT');
  const seedMs = performance.now() - t0;
  const sections = Number((await db.query('SELECT count(*) FROM "DocumentSection"')).rows[0].count);

  // Matches per query, to show what "few" and "many" mean here.
  const matches = async (q: string) => Number((await db.query(`SELECT count(*) FROM "DocumentSection" WHERE search @@ websearch_to_tsquery('english', $1)`, [q])).rows[0].count);
  // Few: a made-up word (in a few dozen sections) and a common word of one of those sections.
  const { rows: samples } = await db.query<{ body: string }>(`SELECT body FROM "DocumentSection" TABLESAMPLE BERNOULLI (1) REPEATABLE (7) LIMIT 200`);
  const tail = new Set(TAIL);
  const few = samples
    .map(({ body }) => body.toLowerCase().split(/[^a-z0-9]+/))
    .filter((words) => words.some((w) => tail.has(w)) && words.some((w) => COMMON.includes(w)))
    .slice(0, 20)
    .map((words) => `${words.find((w) => tail.has(w))} ${words.find((w) => COMMON.includes(w))}`);
  // Many: two words of rank 20 to 40 (each in about a quarter of the sections). All: two of the
  // five most common words, found in nearly every section (ranked from the first 5,000 found).
  const pairs = (words: string[]) => Array.from({ length: 20 }, (_, i) => `${words[i % words.length]} ${words[(i * 7 + 3) % words.length]}`);
  const many = pairs(COMMON.slice(20, 40));
  const all = pairs(COMMON.slice(0, 5)).filter((q) => q.split(' ')[0] !== q.split(' ')[1]);
  const count = async (queries: string[]) => {
    // One after the other: one pg client runs one query at a time.
    const n: number[] = [];
    for (const q of queries.slice(0, 5)) n.push(await matches(q));
    return { min: Math.min(...n), max: Math.max(...n) };
  };
  const matchingSections = { few: await count(few), many: await count(many), all: await count(all) };

  // Each call's wall time, and content's CPU (every thread) per call: what the machine's other
  // work cannot move from run to run.
  async function measure(call: (query: string) => Promise<unknown>, queries: string[]) {
    const times: number[] = [];
    let cpu = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      if (i === WARMUP) cpu = processCpuMs(content.app.pid!).all;
      const start = performance.now();
      await call(queries[i % queries.length]!);
      if (i >= WARMUP) times.push(performance.now() - start);
    }
    return { ...percentiles(times), contentCpuMs: Math.round(((processCpuMs(content.app.pid!).all - cpu) / RUNS) * 100) / 100 };
  }
  const space = (query: string) => content.callContent(content.spaceContent.searchSpace, { spaceId: big.id, query }, owner.id);
  const organization = (query: string) => content.callContent(content.spaceContent.searchOrganization, { organizationId: org.id, query }, owner.id);

  const gateway = startGatewayApp();
  const headers = { authorization: `Bearer ${owner.token}` };
  await waitForHttp(`${gateway}/v1/spaces/${big.id}/search?query=system`, headers);
  const http = (path: string) => async (query: string) => {
    const res = await fetch(`${gateway}${path}?query=${encodeURIComponent(query)}`, { headers });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const spaceHttp = http(`/v1/spaces/${big.id}/search`);
  const organizationHttp = http(`/v1/orgs/${org.id}/search`);

  // The other languages: common words (in another inflection, or without accents) and rare ones,
  // with the pages each finds (up to 1,000; search ranks a bounded number, see MAX_RANKED_PAGES).
  const languageQueries = LANGUAGES.map((l) => ({ name: l.name, common: l.common, rare: TAILS.get(l.name)!.slice(100, 110) }));
  const found = async (query: string) =>
    ((await content.callContent(content.spaceContent.searchSpace, { spaceId: big.id, query, page: { page: '', limit: 1000 } }, owner.id)) as { items: unknown[] }).items.length;
  const languagePagesFound: Record<string, Record<string, number>> = {};
  const languageSpaceMs: Record<string, { common: Awaited<ReturnType<typeof measure>>; rare: Awaited<ReturnType<typeof measure>> }> = {};
  for (const l of languageQueries) {
    languagePagesFound[l.name] = {};
    for (const q of [...l.common, ...l.rare.slice(0, 3)]) languagePagesFound[l.name]![q] = await found(q);
    languageSpaceMs[l.name] = { common: await measure(space, l.common), rare: await measure(space, l.rare) };
  }

  const result = {
    bench: 'content-search',
    date: new Date().toISOString(),
    pages: { searchSpace: PAGES, searchOrganization: PAGES + (PAGES / 20) * 4 },
    sections,
    seedMs: Math.round(seedMs),
    runs: RUNS,
    matchingSections,
    searchSpaceMs: { few: await measure(space, few), many: await measure(space, many), all: await measure(space, all) },
    languagePagesFound,
    languageSpaceMs,
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
    ...Object.entries(languageSpaceMs).flatMap(([name, r]) => [[`SearchSpace, ${name}, common words`, r.common] as const, [`SearchSpace, ${name}, rare words`, r.rare] as const]),
    ['GetSpace (no search), for comparison', result.baselineGetSpaceMs],
  ] as const)
    console.log(`${name}: p50 ${r.p50} ms, p99 ${r.p99} ms (target p99 < 50 ms); content's CPU ${r.contentCpuMs} ms a call`);
  writeResult('content-search', result);
} finally {
  await db.end();
  await content.stop();
  await databases.drop();
  if (keep) console.log(`Database kept: ${databases.urls.content}`);
}
