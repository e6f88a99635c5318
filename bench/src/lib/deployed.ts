import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { ContentServiceClient } from '@quire/proto/content';
import { SpaceContentServiceClient } from '@quire/proto/space-content';
import { createClient } from '@quire/service-kit';
import { callAs, cloneTemplate, migrateTemplate } from '@quire/service-kit/testing';
import { createOrganization, createToken, createUser } from '@quire/orgs/admin';
import { openStore } from '@quire/orgs/store';
import { startApp, stopAll } from './load.ts';

// The services as deployed, each its own process from its built bundle (`pnpm build` first),
// over fresh databases: what the benchmarks that measure a service's calls talk to, so that the
// load generator's own work (seeding, its garbage collection) never shares a service's thread.

type Service = 'orgs' | 'content' | 'git-sync';
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export const PORTS = { orgs: 51251, content: 51252, gitSync: 51256, gateway: 18196 } as const;
/** The services' domain events on a stream of the benchmarks' own, never the stack's EVENTS (whose audit log would read them). */
const EVENTS = { EVENTS_STREAM: 'BENCH_EVENTS', EVENTS_SUBJECT_PREFIX: 'bench.events' };

/** Fresh copies of the services' migrated databases, dropped by `drop()` but those in `keep` (left for a look after the run). */
export async function freshDatabases<S extends Service>(services: S[], keep: S[] = []) {
  await Promise.all(services.map((s) => migrateTemplate(s, here(`../../../apps/${s}`))));
  const databases = await Promise.all(services.map((s) => cloneTemplate(s)));
  const urls = Object.fromEntries(services.map((s, i) => [s, databases[i]!.url])) as Record<S, string>;
  return {
    urls,
    async drop() {
      await Promise.all(databases.filter((_, i) => !keep.includes(services[i]!)).map((d) => d.drop()));
    },
  };
}

/** A user owning an organization, with an API token, written in the orgs database. */
export async function seedOwner(orgsUrl: string, name: string) {
  const { store, close } = openStore(orgsUrl, 2);
  try {
    const user = await createUser(store, `${name}@example.com`, name);
    const org = await createOrganization(store, name, user.email);
    const { token } = await createToken(store, user.email);
    return { owner: { id: user.id, token }, org };
  } finally {
    await close();
  }
}

/** Resolves once `call` answers: a started app is ready (its start checks its stores first). */
export async function ready(call: () => Promise<unknown>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return void (await call());
    } catch (err) {
      if (i > 300) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * orgs and content started as apps over `urls`, and content's clients, calling as the gateway does
 * for a user. `stop()` ends every app the bench started and removes content's blob folder.
 */
export async function startContentApps(urls: { orgs: string; content: string }, contentEnv: Record<string, string> = {}) {
  const blobDir = await mkdtemp(join(tmpdir(), 'bench-blobs-'));
  startApp('orgs', { ORGS_PORT: String(PORTS.orgs), DATABASE_URL: urls.orgs, LOG_LEVEL: 'warn', ...EVENTS });
  const app: ChildProcess = startApp('content', {
    CONTENT_PORT: String(PORTS.content),
    ORGS_URL: `127.0.0.1:${PORTS.orgs}`,
    DATABASE_URL: urls.content,
    CONTENT_BLOB_DIR: blobDir,
    LOG_LEVEL: 'warn',
    ...EVENTS,
    ...contentEnv,
  });
  const client = createClient(ContentServiceClient, `127.0.0.1:${PORTS.content}`);
  const spaceContent = createClient(SpaceContentServiceClient, `127.0.0.1:${PORTS.content}`);
  const call = callAs(client, 'content');
  return {
    app,
    client,
    spaceContent,
    call,
    callContent: callAs(spaceContent, 'content'),
    /** A new space of the organization, as `userId`; the first call waits for the apps to be up. */
    async createSpace(organizationId: string, userId: string, title: string): Promise<string> {
      let id = '';
      await ready(async () => (id = (await call(client.createSpace, { organizationId, title, emoji: '', editMode: '', visibility: '' }, userId)).id));
      return id;
    },
    async stop() {
      client.close();
      spaceContent.close();
      // The apps close their pools on SIGTERM; their databases can go once they have exited.
      await stopAll();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}

/**
 * git-sync's jobs on a subject and durable consumer of this run's own (a consumer another run
 * left, whatever its subject, is never shared), removed by NATS a minute after the run.
 */
export function gitSyncQueue(): Record<string, string> {
  const run = randomBytes(5).toString('hex');
  return { GIT_SYNC_SUBJECT: `jobs.bench.gitsync.${run}`, GIT_SYNC_CONSUMER: `git-sync-bench-${run}`, GIT_SYNC_CONSUMER_INACTIVE_MS: '60000' };
}

/** Service `git-sync` as an app on a queue of the run's own, calling content; `env` adds to its settings. */
export function startGitSyncApp(databaseUrl: string, env: Record<string, string> = {}): ChildProcess {
  return startApp('git-sync', {
    GIT_SYNC_PORT: String(PORTS.gitSync),
    CONTENT_URL: `127.0.0.1:${PORTS.content}`,
    DATABASE_URL: databaseUrl,
    ...gitSyncQueue(),
    QUIRE_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: 'warn',
    ...EVENTS,
    ...env,
  });
}

/** The gateway as an app in front of orgs and content (no rate limit worth the name: the bench is one caller). */
export function startGatewayApp(): string {
  startApp('gateway', {
    PORT: String(PORTS.gateway),
    ORGS_URL: `127.0.0.1:${PORTS.orgs}`,
    CONTENT_URL: `127.0.0.1:${PORTS.content}`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  return `http://127.0.0.1:${PORTS.gateway}`;
}
