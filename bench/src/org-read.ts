import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { databaseUrlDefault, Role } from '@quire/service-kit';
import { openStore } from '@quire/orgs/store';
import { addMember, createOrganization, createToken, createUser } from '@quire/orgs/admin';

// Authenticated GET /v1/orgs/{id} through gateway -> orgs (gRPC) -> PostgreSQL, against two
// baselines on the same machine: a bare Fastify answer and one Fastify process reading the same
// rows with pg. 50 connections, 10 s each (BENCH_SECONDS, BENCH_CONNECTIONS to change).

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const databaseUrl = process.env.ORGS_DATABASE_URL ?? databaseUrlDefault('orgs');
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const children: ChildProcess[] = [];
/** Starts a server process: the apps as built (dist/, what deploys), the baselines through tsx. */
function start(script: string, env: Record<string, string>): void {
  const execArgv = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = fork(script, [], { execArgv, env: { ...process.env, ...env }, stdio: 'inherit' });
  child.on('exit', (code) => code && console.error(`${script} exited with ${code}`));
  children.push(child);
}

async function waitForHttp(url: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 100; i++) {
    if (await fetch(url, { headers }).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

function load(name: string, url: string, token: string) {
  return new Promise<{ name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number }>((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers: { authorization: `Bearer ${token}` } }, (err, r) => {
      if (err) return reject(err);
      resolve({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx });
    });
  });
}

const { store, close } = openStore(databaseUrl, 2);
const tag = Date.now().toString(36);
const owner = await createUser(store, `bench-${tag}@example.com`, 'Bench');
const reader = await createUser(store, `bench-reader-${tag}@example.com`, 'Bench Reader');
const org = await createOrganization(store, `Bench ${tag}`, owner.email);
await addMember(store, org.id, reader.email, Role.ROLE_READ);
const { token } = await createToken(store, reader.email);
await close();

try {
  start(here('./servers/bare.ts'), { PORT: '18181' });
  start(here('./servers/pg-direct.ts'), { PORT: '18182', DATABASE_URL: databaseUrl, BENCH_USER_ID: reader.id });
  start(fileURLToPath(new URL('../../apps/orgs/dist/main.js', import.meta.url)), { ORGS_PORT: '51151', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  start(fileURLToPath(new URL('../../apps/gateway/dist/main.js', import.meta.url)), {
    PORT: '18180', ORGS_URL: '127.0.0.1:51151', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const path = `/v1/orgs/${org.id}`;
  const headers = { authorization: `Bearer ${token}` };
  // Only orgs runs behind the gateway here, so its readiness (all services) is not the signal:
  // the measured request answering 200 is.
  for (const url of ['http://127.0.0.1:18181/v1/orgs/x', 'http://127.0.0.1:18182/healthz', `http://127.0.0.1:18180${path}`]) await waitForHttp(url, headers);

  // A short warm-up for each (JIT, pools, the token cache), then the measured runs.
  const results = [];
  for (const [name, port] of [['bare fastify', 18181], ['fastify + pg', 18182], ['gateway -> orgs -> pg', 18180]] as const) {
    await new Promise<void>((resolve) => autocannon({ url: `http://127.0.0.1:${port}${path}`, connections, duration: 2, headers }, () => resolve()));
    results.push(await load(name, `http://127.0.0.1:${port}${path}`, token));
  }
  const pgBaseline = results[1]!.rps;
  const table = results.map((r) => ({ ...r, rps: Math.round(r.rps), vsPgBaseline: `${Math.round((r.rps / pgBaseline) * 100)}%` }));
  console.table(table);
  const full = results[2]!;
  console.log(`full path: ${Math.round((full.rps / pgBaseline) * 100)}% of the single-process pg baseline (target >= 50%), p99 ${full.p99} ms (target < 50 ms)`);
  mkdirSync(here('../results'), { recursive: true });
  writeFileSync(here('../results/org-read.json'), JSON.stringify({ date: new Date().toISOString(), connections, seconds, results: table }, null, 2) + '\n');
} finally {
  for (const c of children) c.kill('SIGTERM');
}
