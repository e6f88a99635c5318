import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connect } from 'nats';
import pg from 'pg';
import type { Client } from '@grpc/grpc-js';
import type { Bound } from '@quire/proto/limits';
import { ServiceIdentity, type IdentityOptions } from '../assertion.js';
import type { ServiceName } from '../callers.js';
import { createClient, unaryCall } from '../client.js';
import type { startGrpcServer } from '../grpc.js';
import { generateServiceKeys, loadServiceKeys } from '../identity.js';
import { createLogger, type Logger } from '../logger.js';
import { InvalidArgumentError } from '../errors.js';
import { connectNats, eventSink } from '../nats.js';

export { sealWithoutKeyId } from './sealed.js';
export { leaseSharedProcess, serveLeases, type Lease } from './shared-process.js';

const run = promisify(execFile);

/**
 * The loopback address a shared test stack may reach as a private host (QUIRE_PRIVATE_HOSTS):
 * tests serve what imports, Git and OIDC fetch on it, while 127.0.0.1 and every other private
 * address stay refused, as in production.
 */
export const TEST_PRIVATE_HOST = '127.0.0.2';

/** The server tests create their databases on: the local PostgreSQL unless QUIRE_PG_URL says otherwise. */
export function adminUrl(): string {
  return process.env.QUIRE_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

function withDatabase(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * This run's mark, set by the first globalSetup and inherited by its workers: every database and
 * stream a test makes carries it, so the run's teardown sweeps what a shared stack left (a worker
 * is killed, not asked to stop). It starts with a letter no hex suffix holds.
 */
export function testRun(): string {
  return (process.env.QUIRE_TEST_RUN ??= `r${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}`);
}

/** A name part no other test or run uses: streams, subjects, consumers, buckets. */
export function testSuffix(): string {
  return `${testRun()}${randomBytes(4).toString('hex')}`;
}

/**
 * The node flags of an app's start script (`node <flags> dist/main.js` in `appDir`'s package.json):
 * what its image runs it with, and the benchmarks too.
 */
export function startScriptFlags(appDir: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  return /^node (.+) dist\/main\.js$/.exec(scripts?.start ?? '')?.[1]?.split(' ') ?? [];
}

/** The migrations' fingerprint: a template stays valid until a migration is added or changed. */
function migrationsHash(serviceDir: string): string {
  const dir = join(serviceDir, 'prisma', 'migrations');
  const hash = createHash('sha256');
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }).sort((a, b) => join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)))) {
    if (entry.isFile()) hash.update(`${relative(dir, join(entry.parentPath, entry.name))}\0`).update(readFileSync(join(entry.parentPath, entry.name)));
  }
  return hash.digest('hex').slice(0, 12);
}

const templateVar = (service: string) => `QUIRE_TEST_TEMPLATE_${service.toUpperCase().replace(/-/g, '_')}`;
const templatePrefix = (service: string) => `quire_${service.replace(/-/g, '_')}_tpl_`;

/**
 * The service's template database for its current migrations (vitest globalSetup): made by
 * `prisma migrate deploy`, the step production runs, only when no template of these migrations
 * exists yet. Every suite of a run, and the runs after it, clone the same template; each test
 * file's clone takes milliseconds instead of a migration. An advisory lock keeps two suites from
 * migrating it at once, and it is renamed into place only once migrated.
 */
export async function migrateTemplate(service: string, serviceDir: string): Promise<void> {
  testRun();
  const name = `${templatePrefix(service)}${migrationsHash(serviceDir)}`;
  process.env[templateVar(service)] = name;
  const lock = new pg.Client({ connectionString: adminUrl() });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const found = await lock.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    const building = `${name}_new`;
    await lock.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await lock.query(`CREATE DATABASE ${building}`);
    await run('pnpm', ['exec', 'prisma', 'migrate', 'deploy'], { cwd: serviceDir, env: { ...process.env, DATABASE_URL: withDatabase(adminUrl(), building) } });
    await lock.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    // Templates of older migrations: the three newest are kept (another checkout may be testing with one).
    const stale = await lock.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname ~ $1 ORDER BY oid DESC OFFSET 3`, [
      `^${templatePrefix(service)}[0-9a-f]{12}$`,
    ]);
    for (const { datname } of stale.rows) await lock.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await lock.end();
  }
}

/**
 * A suite's globalSetup: the templates of the services its tests start (by their folder under
 * apps/), and a teardown that sweeps what the run left.
 */
export async function prepareTemplates(...services: string[]): Promise<() => Promise<void>> {
  await Promise.all(services.map((s) => migrateTemplate(s, fileURLToPath(new URL(`../../../../apps/${s}`, import.meta.url)))));
  return sweepTestRun;
}

/**
 * Drops what this run's tests left: the databases and NATS streams and consumers named with
 * `testRun()`. The globalSetup's teardown calls it; a clean run leaves nothing to drop but the
 * shared stacks' (their workers are killed).
 */
export async function sweepTestRun(): Promise<void> {
  const mark = testRun();
  await admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'quire\\_%' AND strpos(datname, $1) > 0`, [`_test_${mark}`]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'test-sweep' });
  try {
    const jsm = await nc.jetstreamManager();
    for await (const info of jsm.streams.list()) {
      const stream = info.config.name;
      if (stream.toLowerCase().includes(mark)) {
        await jsm.streams.delete(stream).catch(() => false);
        continue;
      }
      for await (const consumer of jsm.consumers.list(stream)) {
        if (consumer.name.includes(mark)) await jsm.consumers.delete(stream, consumer.name).catch(() => false);
      }
    }
  } finally {
    await nc.close();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh copy of the service's template database, for one test file. */
export async function cloneTemplate(service: string): Promise<TestDatabase> {
  const template = process.env[templateVar(service)];
  if (!template) throw new Error(`No template database for ${service}: add migrateTemplate('${service}', ...) to the vitest globalSetup`);
  const name = `quire_${service.replace(/-/g, '_')}_test_${testSuffix()}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: withDatabase(adminUrl(), name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A connected client on the database at `url`, for a test to read and seed rows as stored. */
export async function connectDb(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Stops what a suite started, one after another in the order given; what never started (its beforeAll failed first) is passed over. */
export async function stopAll(...running: ({ stop(): Promise<unknown> } | { end(): Promise<void> } | undefined)[]): Promise<void> {
  for (const r of running) if (r) await ('stop' in r ? r.stop() : r.end());
}

let testKeys: ReturnType<typeof generateServiceKeys> | undefined;

/** The message of the INVALID_ARGUMENT `check` throws; it fails when `check` throws another error or none. */
export function refusal(check: () => unknown): string {
  try {
    check();
  } catch (err) {
    if (err instanceof InvalidArgumentError) return err.message;
    throw err;
  }
  throw new Error('accepted a value over its bound');
}

/** A string one character over `bound`. */
export const overBound = (bound: Bound) => 'x'.repeat(bound.max + 1);

/**
 * The key set of this run, made once: every service's private key and the trust document naming
 * them all. Kept in the environment, as `testRun()` is, so that the workers a globalSetup spawns
 * sign with the keys of the services the run shares (the shared stack hands its set over).
 */
export function testServiceKeys(): ReturnType<typeof generateServiceKeys> {
  return (testKeys ??= JSON.parse((process.env.QUIRE_TEST_SERVICE_KEYS ??= JSON.stringify(generateServiceKeys()))));
}

/** Service `name`'s identity in tests: real keys of the process's test key set, verified as in production. */
export function testIdentity(name: ServiceName, options?: IdentityOptions): ServiceIdentity {
  const keys = testServiceKeys();
  return new ServiceIdentity(loadServiceKeys(name, { QUIRE_SERVICE_KEY: keys.privateKeys[name], QUIRE_SERVICE_TRUST: keys.trust }), options);
}

let gateway: ServiceIdentity | undefined;
let testClientLog: Logger | undefined;

/** `call(method, request, userId)`: an RPC of `client` (service `audience`) as that user, signed the way the gateway signs. */
export function callAs(client: Client, audience: ServiceName) {
  // A refused or failed call is the test's to read, not a log line's.
  const callee = { identity: (gateway ??= testIdentity('gateway')), audience, log: (testClientLog ??= createLogger('test-client', process.env.TEST_LOG_LEVEL ?? 'silent')) };
  return <Req, Res>(method: Parameters<typeof unaryCall<Req, Res>>[1], request: Req, userId?: string) =>
    unaryCall<Req, Res>(client, method, request, { userId, requestId: 'test' }, callee);
}

/** A client of `Ctor` at `address` (service `audience`), and its calls as a user: a server this process started or another's. */
export function connectedTo<C extends Client>(address: string, Ctor: Parameters<typeof createClient<C>>[0], audience: ServiceName) {
  const client = createClient(Ctor, address);
  /** Calls an RPC as `userId`. */
  return { address, client, call: callAs(client, audience) };
}

/**
 * What every harness tells of the gRPC server it started: its address, a client of `Ctor` there,
 * calls through it as a user, and a kill; `close` (the client closed, the server shut down) is the
 * first step of the harness's stop.
 */
export function served<C extends Client>(server: Awaited<ReturnType<typeof startGrpcServer>>, Ctor: Parameters<typeof createClient<C>>[0], audience: ServiceName) {
  const { address, client, call } = connectedTo(`127.0.0.1:${server.port}`, Ctor, audience);
  return {
    address,
    client,
    call,
    /** Cuts every connection at once and answers nothing more, as a killed instance would (stop() still cleans up). */
    kill: () => server.server.forceShutdown(),
    async close() {
      client.close();
      await server.shutdown(1000);
    },
  };
}

/**
 * The domain events of `service` on the local NATS (NATS_URL), under `prefix`: the events stream
 * of the orgs instance the test started, whose audit log reads them. Without one, a prefix no
 * stream takes: publishing then fails, is logged, and fails no call, as when the stream is down.
 */
export async function testEventSink(service: ServiceName, log: Logger, prefix = `test.events.none.${testSuffix()}`) {
  const nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', `${service}-test`, log);
  return { events: eventSink(nc, service, prefix, log), nc, close: () => nc.drain() };
}

/**
 * A free loopback port for a server whose own address must be configured before it listens (a
 * public URL, a cookie's origin). It is drawn below the kernel's ephemeral range (32768 up), so
 * the servers other tests bind to port 0 and outgoing connections cannot take it in between.
 */
export async function reservedPort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
}

/** A fixture (vitest's `test.extend`) of what `start` gives, running for the fixture's scope and stopped after it. */
export function running<T extends { stop(): Promise<unknown> }>(start: () => Promise<T>) {
  return async ({}: object, use: (value: T) => Promise<void>) => {
    const value = await start();
    await use(value);
    await value.stop();
  };
}
