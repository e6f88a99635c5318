import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileAggregation, type Aggregation } from '@quire/insights/query';
import { openStore } from '@quire/insights/store';

// Aggregate latency over 10 million stored events of one site spread over 30 days, measured at
// the insights store (the compiled, parameterized query through the ClickHouse transport: what
// AggregateEvents runs, without gRPC and the gateway around it). Embedded chdb in a temporary
// directory by default, the server at CLICKHOUSE_URL when set. Rows are generated inside
// ClickHouse with numbers(). BENCH_ROWS and BENCH_RUNS change the size.

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const CHUNK = 1_000_000;
const scope = { organizationId: 'bench-org', siteId: `bench-site-${Date.now().toString(36)}` };

const dataDir = mkdtempSync(join(tmpdir(), 'quire-insights-bench-'));
const store = await openStore({
  clickhouseUrl: process.env.CLICKHOUSE_URL,
  clickhouseDatabase: process.env.CLICKHOUSE_DATABASE ?? 'default',
  chdbPath: dataDir,
  retentionDays: 400,
});

try {
  const started = Date.now();
  const now = new Date();
  // 200k visitors, a session per visitor and day, pages with a long tail, evenly over 30 days.
  for (let offset = 0; offset < ROWS; offset += CHUNK) {
    await store.transport.query(
      `INSERT INTO events (organization_id, site_id, timestamp, batch_id, event_type, visitor_id, session_id, url, space, page, device, browser, os, user_agent, claims)
       SELECT {org:String}, {site:String}, n.t, 'bench', if(n.number % 10 = 0, 'search_open', 'page_view'), n.v,
              concat(n.v, '-', toString(toDate(n.t))), concat('https://docs.example.com/p', toString(n.p)), 'space1', concat('p', toString(n.p)),
              'desktop', 'chrome', 'macos', 'Mozilla/5.0', if(n.number % 4 = 0, '{"plan":"pro"}', '{}')
       FROM (SELECT number, fromUnixTimestamp64Milli(toInt64({end:Int64} - intDiv(number * 2592000000, {rows:UInt64})), 'UTC') AS t,
                    concat('v', toString(cityHash64(number) % 200000)) AS v, intDiv(1000, (cityHash64(number, 1) % 1000) + 1) AS p
             FROM numbers({offset:UInt64}, {chunk:UInt64})) AS n`,
      { org: scope.organizationId, site: scope.siteId, end: now.getTime(), rows: ROWS, offset, chunk: Math.min(CHUNK, ROWS - offset) },
    );
  }
  const generated = (Date.now() - started) / 1000;
  const stored = await store.count(scope.organizationId, scope.siteId);
  console.log(`generated ${stored.toLocaleString()} events in ${generated.toFixed(1)} s`);

  const q = (over: Partial<Aggregation>): Aggregation => ({ select: [], where: [], groupBy: [], range: { preset: 'last30Days' }, limit: 1000, ...over });
  const hour = { column: 'datetime', interval: 'hour' };
  const day = { column: 'datetime', interval: 'day' };
  const queries: Record<string, Aggregation> = {
    'count by hour, 30 days': q({ select: [hour, { column: 'eventsCount' }], groupBy: [hour], order: { by: hour, direction: 'asc' } }),
    'unique visitors by day': q({ select: [day, { column: 'visitorsCount' }], groupBy: [day], order: { by: day, direction: 'asc' } }),
    'top pages': q({
      select: [{ column: 'page' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'page' }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 10,
    }),
    // What no projection answers: a column outside them over a custom range reads the events.
    'visitors by browser, custom range (no projection)': q({
      select: [{ column: 'visitorBrowser' }, { column: 'visitorsCount' }],
      groupBy: [{ column: 'visitorBrowser' }],
      range: { custom: { from: new Date(Date.now() - 30 * 86_400_000), to: new Date() } },
    }),
  };

  const results = [];
  for (const [name, query] of Object.entries(queries)) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      const t0 = performance.now();
      const compiled = compileAggregation(query, scope, new Date());
      rows = (await store.aggregate(compiled)).length;
      // The first three are warm-up (caches, JIT).
      if (i >= 3) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const pct = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 10) / 10;
    results.push({ query: name, rows, p50: pct(0.5), p95: pct(0.95), max: pct(1) });
  }
  console.table(results);
  const file = fileURLToPath(new URL('../results/insights-aggregate.json', import.meta.url));
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify(
      { date: new Date().toISOString(), engine: process.env.CLICKHOUSE_URL ? 'server' : 'chdb', events: stored, generatedSeconds: generated, runs: RUNS, resultsMs: results },
      null,
      2,
    ) + '\n',
  );
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
