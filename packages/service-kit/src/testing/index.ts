import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Client } from '@grpc/grpc-js';
import { ServiceIdentity, type IdentityOptions } from '../assertion.js';
import type { ServiceName } from '../callers.js';
import { unaryCall } from '../grpc.js';
import { generateServiceKeys, loadServiceKeys } from '../identity.js';
import type { Logger } from '../logger.js';
import { connectNats, eventSink } from '../nats.js';

const run = promisify(execFile);

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

// One template per test run (the globalSetup's process), named in the environment the workers
// inherit, so two suites migrating the same service at once do not drop each other's template.
const templateVar = (service: string) => `QUIRE_TEST_TEMPLATE_${service.toUpperCase().replace(/-/g, '_')}`;

/**
 * The node flags of an app's start script (`node <flags> dist/main.js` in `appDir`'s package.json):
 * what its image runs it with, and the benchmarks too.
 */
export function startScriptFlags(appDir: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  return /^node (.+) dist\/main\.js$/.exec(scripts?.start ?? '')?.[1]?.split(' ') ?? [];
}

/**
 * Migrates a template database once (vitest globalSetup): `prisma migrate deploy`, the same step
 * production runs, from the service's folder. Each test file then clones it, which takes
 * milliseconds instead of a migration.
 */
export async function migrateTemplate(service: string, serviceDir: string): Promise<() => Promise<void>> {
  const name = `quire_${service.replace(/-/g, '_')}_tpl_${process.pid}`;
  process.env[templateVar(service)] = name;
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  await run('pnpm', ['exec', 'prisma', 'migrate', 'deploy'], {
    cwd: serviceDir,
    env: { ...process.env, DATABASE_URL: withDatabase(adminUrl(), name) },
  });
  return () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh copy of the service's template database, for one test file. */
export async function cloneTemplate(service: string): Promise<TestDatabase> {
  const template = process.env[templateVar(service)];
  if (!template) throw new Error(`No template database for ${service}: add migrateTemplate('${service}', ...) to the vitest globalSetup`);
  const name = `quire_${service.replace(/-/g, '_')}_test_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: withDatabase(adminUrl(), name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

let testKeys: ReturnType<typeof generateServiceKeys> | undefined;

/** The key set of this test process, made once: every service's private key and the trust document naming them all. */
export function testServiceKeys() {
  return (testKeys ??= generateServiceKeys());
}

/** Service `name`'s identity in tests: real keys of the process's test key set, verified as in production. */
export function testIdentity(name: ServiceName, options?: IdentityOptions): ServiceIdentity {
  const keys = testServiceKeys();
  return new ServiceIdentity(loadServiceKeys(name, { QUIRE_SERVICE_KEY: keys.privateKeys[name], QUIRE_SERVICE_TRUST: keys.trust }), options);
}

let gateway: ServiceIdentity | undefined;

/** `call(method, request, userId)`: an RPC of `client` (service `audience`) as that user, signed the way the gateway signs. */
export function callAs(client: Client, audience: ServiceName) {
  const callee = { identity: (gateway ??= testIdentity('gateway')), audience };
  return <Req, Res>(method: Parameters<typeof unaryCall<Req, Res>>[1], request: Req, userId?: string) =>
    unaryCall<Req, Res>(client, method, request, { userId, requestId: 'test' }, callee);
}

/**
 * The domain events of `service` on the local NATS (NATS_URL), under `prefix`: the events stream
 * of the orgs instance the test started, whose audit log reads them. Without one, a prefix no
 * stream takes: publishing then fails, is logged, and fails no call, as when the stream is down.
 */
export async function testEventSink(service: ServiceName, log: Logger, prefix = `test.events.none.${randomBytes(5).toString('hex')}`) {
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
