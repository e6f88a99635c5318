import { mkdtempSync, rmSync } from 'node:fs';
import { writeResult } from './lib/results.ts';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createClient, createLogger, databaseUrlDefault } from '@quire/service-kit';
import { testIdentity } from '@quire/service-kit/testing';
import { connectNats } from '@quire/service-kit/nats';
import { openStore } from '@quire/orgs/store';
import { eventRows } from '@quire/insights/events';
import { toMessages } from '@quire/insights/publisher';
import { openStore as openInsightsStore } from '@quire/insights/store';
import { createOrganization, createToken, createUser } from '@quire/orgs/admin';
import { InsightsServiceClient } from '@quire/proto/insights';
import { processCpuMs, startApp, stopAll, waitForHttp } from './lib/load.ts';

// Ingest: events accepted per second by POST /v1/orgs/{org}/sites/{site}/insights/events in
// batches of 100 and of 1,000 events, through the gateway (HTTP, autocannon) and directly over
// gRPC to the insights service (TrackEvents); during the load, every 250 ms, how long ago the
// oldest accepted event an aggregate does not count yet was accepted (the worst is reported); then
// the time from the end of the load until an aggregate counts every accepted event. Accepted =
// JetStream stored the batch (the 204).
// Processes: orgs, insights and gateway from their built bundles (as deployed), NATS and chdb as in
// production, on a stream and data directory of their own. BENCH_SECONDS, BENCH_CONNECTIONS.
// Baseline, last: ClickHouse alone (chdb in this process), inserting the same events as rows made
// beforehand, in inserts of 10,000 (the writer's at 20,000 events/s): the ceiling this machine
// puts on ingest, whatever runs in front of ClickHouse.

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const tag = Date.now().toString(36);
const stream = `BENCH_INSIGHTS_${tag.toUpperCase()}`;
const dataDir = mkdtempSync(join(tmpdir(), 'quire-insights-ingest-'));
const databaseUrl = process.env.ORGS_DATABASE_URL ?? databaseUrlDefault('orgs');

const orgsStore = openStore(databaseUrl, 2);
const owner = await createUser(orgsStore.store, `bench-insights-${tag}@example.com`, 'Bench');
const org = await createOrganization(orgsStore.store, `Bench ${tag}`, owner.email);
const { token } = await createToken(orgsStore.store, owner.email);
await orgsStore.close();

function event(i: number) {
  return {
    type: i % 10 === 0 ? 'search_open' : 'page_view',
    session: {
      visitorId: `visitor-${i % 97}`,
      sessionId: `session-${i % 31}`,
      cookies: {},
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      language: 'en-US',
      referrer: 'https://www.google.com/',
      visitorAuthClaims: i % 4 === 0 ? { plan: 'pro' } : {},
    },
    location: {
      url: `https://docs.example.com/guides/page-${i % 50}?utm_source=newsletter`,
      siteSection: 'section1',
      siteSpace: 'sitesp1',
      siteShareKey: null,
      space: 'space1',
      revision: 'rev1',
      page: `page-${i % 50}`,
    },
  };
}
const batchOf = (n: number) => Array.from({ length: n }, (_, i) => event(i));

/** Events/s and CPU per 1,000 events of inserts of `rows` rows straight into chdb, for `duration` s. */
async function insertAlone(rows: number, duration: number) {
  const dir = mkdtempSync(join(tmpdir(), 'quire-insights-alone-'));
  const store = await openInsightsStore({ clickhouseDatabase: 'default', chdbPath: dir, retentionDays: 30 });
  try {
    // Ten different inserts, used in turn, each with a token of its own (as the writer's).
    const events = batchOf(1000);
    const inserts = Array.from({ length: 10 }, (_, i) => {
      const batches = Array.from({ length: rows / 1000 }, () =>
        eventRows(events, { organizationId: org.id, siteId: 'alone', clientIp: '127.0.0.1', now: new Date(), fromReader: false }),
      );
      return Buffer.concat(batches.flatMap((b, k) => toMessages(b, `alone-${i}-${k}`, 1024 * 1024).map((m) => m.body)));
    });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const until = Date.now() + duration * 1000;
    let n = 0;
    while (Date.now() < until) await store.insert(inserts[n % inserts.length]!, `alone-${n++}`);
    const cpu = process.cpuUsage(cpu0);
    const total = n * rows;
    return {
      rowsPerInsert: rows,
      inserts: n,
      eventsPerSecond: Math.round(total / ((performance.now() - t0) / 1000)),
      cpuMsPer1000: Math.round(((cpu.user + cpu.system) / 1000 / total) * 1000 * 10) / 10,
      stored: await store.count(org.id, 'alone'),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ports = { orgs: 51161, insights: 51167, gateway: 18190 };

try {
  startApp('orgs', { ORGS_PORT: String(ports.orgs), DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  const insightsProcess = startApp('insights', {
    INSIGHTS_PORT: String(ports.insights),
    ORGS_URL: `127.0.0.1:${ports.orgs}`,
    INSIGHTS_STREAM: stream,
    INSIGHTS_SUBJECT_PREFIX: `bench.insights.${tag}`,
    INSIGHTS_CHDB_PATH: dataDir,
    LOG_LEVEL: 'warn',
  });
  const gatewayProcess = startApp('gateway', {
    PORT: String(ports.gateway),
    ORGS_URL: `127.0.0.1:${ports.orgs}`,
    INSIGHTS_URL: `127.0.0.1:${ports.insights}`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const gateway = `http://127.0.0.1:${ports.gateway}`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const aggregateUrl = (site: string) => `${gateway}/v1/orgs/${org.id}/sites/${site}/insights/events/aggregate`;
  const countBody = JSON.stringify({ select: [{ column: 'eventsCount' }], range: 'last24Hours' });
  await waitForHttp(`${gateway}/v1/orgs/${org.id}/sites/warmup/insights/visitor-segments`, headers);

  async function count(site: string): Promise<number> {
    const res = await fetch(aggregateUrl(site), { method: 'POST', headers, body: countBody });
    return ((await res.json()) as { columns: { values: number[] }[] }).columns[0]!.values[0]!;
  }

  /** Seconds from now until the site's aggregate counts `expected` events. */
  async function visibleAfter(site: string, expected: number): Promise<number> {
    const t0 = performance.now();
    while ((await count(site)) < expected) await new Promise((r) => setTimeout(r, 100));
    return Math.round((performance.now() - t0) / 100) / 10;
  }

  function viaGateway(site: string, body: string, duration: number, onAccepted: () => void) {
    return new Promise<{ accepted: number; p50: number; p99: number; errors: number }>((resolve, reject) => {
      const instance = autocannon({ url: `${gateway}/v1/orgs/${org.id}/sites/${site}/insights/events`, method: 'POST', headers, body, connections, duration }, (err, r) => {
        if (err) return reject(err);
        resolve({ accepted: r['2xx'], p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx });
      });
      instance.on('response', (_client, status) => status === 204 && onAccepted());
    });
  }

  const grpc = createClient(InsightsServiceClient, `127.0.0.1:${ports.insights}`);
  async function viaGrpc(site: string, bodyJson: Buffer, duration: number, onAccepted: () => void) {
    const until = Date.now() + duration * 1000;
    const latencies: number[] = [];
    let accepted = 0;
    let errors = 0;
    const loop = async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        const metadata = await gatewayIdentity.metadata('insights', { userId: owner.id });
        await new Promise<void>((resolve) => {
          grpc.trackEvents({ organizationId: org.id, siteId: site, bodyJson, clientIp: '127.0.0.1' }, metadata, (err) => {
            if (err) errors++;
            else {
              accepted++;
              onAccepted();
            }
            resolve();
          });
        });
        latencies.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: connections }, loop));
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => Math.round(latencies[Math.floor(p * (latencies.length - 1))]!);
    return { accepted, p50: pct(0.5), p99: pct(0.99), errors };
  }
  // Signed as the gateway signs: one cached assertion per user, renewed past half its life.
  const gatewayIdentity = testIdentity('gateway');

  const results = [];
  for (const via of ['gateway', 'grpc'] as const) {
    for (const size of [100, 1000]) {
      const events = batchOf(size);
      const site = `${via}-${size}`;
      // Every accepted batch's time: how late the stored events are during the load is read
      // against it (the oldest accepted event not yet counted, at each look).
      let acceptedAt: number[] = [];
      const onAccepted = () => acceptedAt.push(performance.now());
      const run = (s: string, d: number) =>
        via === 'gateway' ? viaGateway(s, JSON.stringify({ events }), d, onAccepted) : viaGrpc(s, Buffer.from(JSON.stringify({ events })), d, onAccepted);
      await run(`warmup-${site}`, 2);
      acceptedAt = [];
      // CPU of each process during the load (the writer's share of those events included, as it
      // keeps up), per 1,000 accepted events: steadier than events/s on a shared machine. Not
      // until the events are visible: a late redelivery would count its idle minute.
      const cpuAt = () => [processCpuMs(insightsProcess.pid!), processCpuMs(gatewayProcess.pid!)];
      const cpu0 = cpuAt();
      let loading = true;
      const lagDuringLoad = (async () => {
        let worst = 0;
        while (loading) {
          await new Promise((r) => setTimeout(r, 250));
          const at = performance.now();
          const oldestUnstored = acceptedAt[Math.floor((await count(site)) / size)];
          if (loading && oldestUnstored !== undefined) worst = Math.max(worst, at - oldestUnstored);
        }
        return Math.round(worst / 100) / 10;
      })();
      const r = await run(site, seconds);
      const cpu1 = cpuAt();
      loading = false;
      const worstLagSeconds = await lagDuringLoad;
      const total = r.accepted * size;
      const visibleSeconds = await visibleAfter(site, total);
      const stored = await count(site);
      const per1000 = (at: number, key: 'all' | 'main') => Math.round(((cpu1[at]![key] - cpu0[at]![key]) / total) * 1000 * 10) / 10;
      results.push({
        via,
        batch: size,
        requests: r.accepted,
        eventsPerSecond: Math.round(total / seconds),
        p50ms: r.p50,
        p99ms: r.p99,
        failed: r.errors,
        stored,
        visibleAfterSeconds: visibleSeconds,
        worstLagDuringLoadSeconds: worstLagSeconds,
        insightsCpuMsPer1000: per1000(0, 'all'),
        insightsMainThreadMsPer1000: per1000(0, 'main'),
        gatewayCpuMsPer1000: per1000(1, 'all'),
        gatewayMainThreadMsPer1000: per1000(1, 'main'),
      });
      console.table([results.at(-1)]);
    }
  }
  grpc.close();
  console.table(results);
  const clickhouseAlone = await insertAlone(10_000, seconds);
  console.table([clickhouseAlone]);
  writeResult('insights-ingest', { date: new Date().toISOString(), connections, seconds, loadAverage: loadavg(), results, clickhouseAlone });
} finally {
  // insights holds its data folder until it has exited.
  await stopAll();
  const nc = await connectNats('nats://127.0.0.1:4222', 'bench', createLogger('bench', 'silent'));
  await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
  await nc.close();
  rmSync(dataDir, { recursive: true, force: true });
}
