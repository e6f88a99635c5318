import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InsightsServiceClient } from '@quire/proto/insights';
import { createClient, createLogger, startGrpcServer } from '@quire/service-kit';
import { callAs, testIdentity, testSuffix } from '@quire/service-kit/testing';
import { loadInsightsConfig } from '../src/config.ts';
import { compose } from '../src/main.ts';
import { ChdbTransport } from '../src/store/index.ts';

// libchdb opens one data directory per process; several sessions on the same one coexist. The
// services a process starts (a test file with two gateways) share one directory, removed with
// the last of them. Their events stay apart: every test makes its own organizations.
const chdbDirectory = { path: undefined as Promise<string> | undefined, users: 0 };

function openChdbDirectory(): Promise<string> {
  chdbDirectory.users++;
  return (chdbDirectory.path ??= mkdtemp(join(tmpdir(), 'quire-insights-')));
}

async function closeChdbDirectory(): Promise<void> {
  if (--chdbDirectory.users > 0) return;
  const path = await chdbDirectory.path!;
  chdbDirectory.path = undefined;
  await rm(path, { recursive: true, force: true });
}

/**
 * The real insights gRPC server and consumer on a free port, calling orgs at `orgsAddress`, over
 * the local NATS with a stream, subjects and consumer of its own (tests do not see each other's
 * events) and a temporary chdb data directory (or CLICKHOUSE_URL's server when `env` names one).
 * `clock.now` is the service's clock.
 */
export async function startInsights(orgsAddress: string, env: Record<string, string> = {}) {
  const suffix = testSuffix();
  const dataDir = await openChdbDirectory();
  const config = loadInsightsConfig({
    ORGS_URL: orgsAddress,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    INSIGHTS_STREAM: `TEST_INSIGHTS_${suffix}`,
    INSIGHTS_SUBJECT_PREFIX: `test.insights.${suffix}`,
    INSIGHTS_CHDB_PATH: dataDir,
    MEMBERSHIP_CACHE_MS: '0',
    ...env,
  });
  const log = createLogger('insights-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const clock = { now: () => new Date() };
  const identity = testIdentity('insights');
  const runtime = await compose(config, identity, log, () => clock.now());
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: runtime.services, identity, log });
  const address = `127.0.0.1:${server.port}`;
  const client = createClient(InsightsServiceClient, address);

  return {
    address,
    client,
    clock,
    config,
    runtime,
    log,
    store: runtime.store,
    /** The embedded engine, to close and reopen as an outage (undefined on a server). */
    chdb: runtime.store.transport instanceof ChdbTransport ? runtime.store.transport : undefined,
    /** Calls an RPC as `userId`. */
    call: callAs(client, 'insights'),
    /** Resolves once `count` events of the site are stored, or fails after `timeoutMs`. */
    async stored(organizationId: string, siteId: string, count: number, timeoutMs = 15_000): Promise<number> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const n = await runtime.store.count(organizationId, siteId).catch(() => -1);
        if (n >= count || Date.now() > deadline) return n;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      client.close();
      await server.shutdown(1000);
      await runtime.stopWriting();
      await (await runtime.nc.jetstreamManager()).streams.delete(config.INSIGHTS_STREAM);
      for (const step of runtime.close) await step();
      await closeChdbDirectory();
    },
  };
}

export type InsightsHarness = Awaited<ReturnType<typeof startInsights>>;
