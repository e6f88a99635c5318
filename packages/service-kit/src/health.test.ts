import { randomBytes } from 'node:crypto';
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startGrpcServer } from './grpc.js';
import { createLogger } from './logger.js';
import { startMetricsServer } from './metrics.js';
import { connectNats, natsCheck } from './nats.js';
import { adminUrl, testIdentity } from './testing/index.js';

// A server whose database is dropped, or whose NATS connection closes, stops reporting SERVING,
// on the standard health service and on /readyz; against the real PostgreSQL and NATS.
const HealthClient = makeGenericClientConstructor(healthService, 'Health');
const log = createLogger('health-test', 'silent');
const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  await c.query(sql).finally(() => c.end());
};

function status(port: number, service = ''): Promise<string> {
  const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure()) as unknown as {
    check(req: { service: string }, opts: { deadline: number }, cb: (err: Error | null, res: { status: string }) => void): void;
    close(): void;
  };
  return new Promise((resolve, reject) =>
    client.check({ service }, { deadline: Date.now() + 2000 }, (err, res) => {
      client.close();
      if (err) reject(err);
      else resolve(res.status);
    }),
  );
}

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** A server of no services whose health is `checks`, checked when a test asks (checkHealth), shut down after the file. */
async function serving(checks: Parameters<typeof startGrpcServer>[0]['checks']) {
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [], identity: testIdentity('orgs'), log, checks, checkIntervalMs: 60_000 });
  cleanup.push(() => server.shutdown(100));
  return server;
}

describe('health follows the dependencies', () => {
  it('is NOT_SERVING once the database is gone, and /readyz says so', async () => {
    const name = `quire_health_test_${randomBytes(4).toString('hex')}`;
    await admin(`CREATE DATABASE ${name}`);
    cleanup.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const url = new URL(adminUrl());
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    pool.on('error', () => {});
    cleanup.push(() => pool.end());
    const server = await serving({ database: () => pool.query('SELECT 1') });
    const side = await startMetricsServer('127.0.0.1', 0, server.ready);
    cleanup.push(() => side.close());

    expect(await server.checkHealth()).toBe(true);
    expect(await status(server.port)).toBe('SERVING');
    expect((await fetch(`http://127.0.0.1:${side.port}/readyz`)).status).toBe(200);

    await admin(`DROP DATABASE ${name} WITH (FORCE)`);
    expect(await server.checkHealth()).toBe(false);
    expect(await status(server.port)).toBe('NOT_SERVING');
    expect((await fetch(`http://127.0.0.1:${side.port}/readyz`)).status).toBe(503);

    // Back when the database is.
    await admin(`CREATE DATABASE ${name}`);
    expect(await server.checkHealth()).toBe(true);
    expect(await status(server.port)).toBe('SERVING');
  }, 60_000);

  it('is NOT_SERVING once NATS is gone', async () => {
    const nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'health-test', log);
    const server = await serving({ nats: natsCheck(nc) });
    expect(await server.checkHealth()).toBe(true);
    await nc.close();
    expect(await server.checkHealth()).toBe(false);
    expect(await status(server.port)).toBe('NOT_SERVING');
  }, 60_000);
});
