import { databaseUrlDefault } from '@quire/service-kit';
import { Role } from '@quire/proto/common';
import { openStore } from '@quire/orgs/store';
import { addMember, createOrganization, createToken, createUser } from '@quire/orgs/admin';
import { compare, serverScript, start, startApp, stopAll, waitForHttp, type LoadResult } from './lib/load.ts';

// Authenticated GET /v1/orgs/{id} through gateway -> orgs (gRPC) -> PostgreSQL, against two
// baselines on the same machine: a bare Fastify answer and one Fastify process reading the same
// rows with pg. 50 connections, 10 s each (BENCH_SECONDS, BENCH_CONNECTIONS to change).

const databaseUrl = process.env.ORGS_DATABASE_URL ?? databaseUrlDefault('orgs');

const { store, close } = openStore(databaseUrl, 2);
const tag = Date.now().toString(36);
const owner = await createUser(store, `bench-${tag}@example.com`, 'Bench');
const reader = await createUser(store, `bench-reader-${tag}@example.com`, 'Bench Reader');
const org = await createOrganization(store, `Bench ${tag}`, owner.email);
await addMember(store, org.id, reader.email, Role.ROLE_READ);
const { token } = await createToken(store, reader.email);
await close();

try {
  start(serverScript('bare'), { PORT: '18181' });
  start(serverScript('pg-direct'), { PORT: '18182', DATABASE_URL: databaseUrl, BENCH_USER_ID: reader.id });
  startApp('orgs', { ORGS_PORT: '51151', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  startApp('gateway', { PORT: '18180', ORGS_URL: '127.0.0.1:51151', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' });
  const path = `/v1/orgs/${org.id}`;
  const headers = { authorization: `Bearer ${token}` };
  // Only orgs runs behind the gateway here, so its readiness (all services) is not the signal:
  // the measured request answering 200 is.
  for (const url of ['http://127.0.0.1:18181/v1/orgs/x', 'http://127.0.0.1:18182/healthz', `http://127.0.0.1:18180${path}`]) await waitForHttp(url, headers);
  const results = await compare(
    'org-read',
    [
      { name: 'bare fastify', url: `http://127.0.0.1:18181${path}` },
      { name: 'fastify + pg', url: `http://127.0.0.1:18182${path}` },
      { name: 'gateway -> orgs -> pg', url: `http://127.0.0.1:18180${path}` },
    ],
    headers,
    'fastify + pg',
  );
  const [, base, full] = results as [LoadResult, LoadResult, LoadResult];
  console.log(`full path: ${Math.round((full.rps / base.rps) * 100)}% of the single-process pg baseline (target >= 50%), p99 ${full.p99} ms (target < 50 ms)`);
} finally {
  await stopAll();
}
