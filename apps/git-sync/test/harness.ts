import { GitSyncServiceClient } from '@quire/proto/gitsync';
import { createLogger, startGrpcServer } from '@quire/service-kit';
import { connectNats } from '@quire/service-kit/nats';
import { cloneTemplate, served, testIdentity, testSuffix } from '@quire/service-kit/testing';
import { loadGitSyncConfig } from '../src/config.ts';
import { compose } from '../src/main.ts';
import type { RunnerDeps } from '../src/worker/jobs.ts';

export interface GitSyncOptions {
  /** Worker loops of this instance (0: API only). */
  workers?: number;
  ackWaitMs?: number;
  /** How often the poller looks for links due a poll (GIT_SYNC_POLL_TICK_MS; 0: no poller). */
  pollTickMs?: number;
  /** Deliveries of a job before a transient failure fails it (GIT_SYNC_MAX_DELIVER). */
  maxDeliver?: number;
  /** Another instance's queue: replicas share its subject and consumer. */
  queue?: { subject: string; consumer: string };
  /** Another instance's database (replicas share it). */
  databaseUrl?: string;
  /** Where its domain events go: the events subjects of the orgs instance whose audit log reads them. */
  eventsPrefix?: string;
  /** That orgs instance's events stream: merges read from it are exported (none without it). */
  eventsStream?: string;
  /** The orgs service a merge's author is read from. */
  orgsAddress?: string;
  beforeApply?: RunnerDeps['beforeApply'];
  /** False to check URLs as production does (loopback refused); true by default. */
  allowPrivateNetwork?: boolean;
  /** False to refuse file: repositories as production does; true by default. */
  allowFileRemotes?: boolean;
}

/**
 * The real git-sync gRPC server and workers on a free port, over a fresh copy of the migrated
 * template database, calling content at `contentAddress`, on a subject and durable consumer of
 * the JOBS stream unique to this instance (so test runs neither see dev jobs nor each other's).
 * Private networks and file: URLs (QUIRE_ALLOW_FILE_REMOTES) are allowed unless said otherwise: test repositories are served
 * on loopback.
 */
export async function startGitSync(contentAddress: string, options: GitSyncOptions = {}) {
  const database = options.databaseUrl ? undefined : await cloneTemplate('git-sync');
  const suffix = testSuffix();
  const queue = options.queue ?? { subject: `jobs.gitsync.test.${suffix}`, consumer: `git-sync-test-${suffix}` };
  const config = loadGitSyncConfig({
    DATABASE_URL: options.databaseUrl ?? database!.url,
    DATABASE_POOL_SIZE: '5',
    CONTENT_URL: contentAddress,
    ...(options.orgsAddress ? { ORGS_URL: options.orgsAddress } : {}),
    ...(options.eventsStream ? { EVENTS_STREAM: options.eventsStream } : {}),
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    GIT_SYNC_SUBJECT: queue.subject,
    // Without an orgs instance's subjects, ones no stream takes (never a dev stack's audit log).
    EVENTS_SUBJECT_PREFIX: options.eventsPrefix ?? `test.events.none.${suffix}`,
    GIT_SYNC_CONSUMER: queue.consumer,
    GIT_SYNC_WORKERS: String(options.workers ?? 2),
    GIT_SYNC_ACK_WAIT_MS: String(options.ackWaitMs ?? 30_000),
    GIT_SYNC_MAX_DELIVER: String(options.maxDeliver ?? 5),
    GIT_SYNC_POLL_TICK_MS: String(options.pollTickMs ?? 1000),
    GIT_SYNC_JOB_TIMEOUT_MS: '120000',
    // A run killed before its teardown leaves no consumer behind for long.
    GIT_SYNC_CONSUMER_INACTIVE_MS: String(10 * 60_000),
    QUIRE_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    QUIRE_ALLOW_FILE_REMOTES: String(options.allowFileRemotes ?? true),
  });
  const log = createLogger('git-sync-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const identity = testIdentity('git-sync');
  const runtime = await compose(config, identity, log, {
    allowPrivateNetwork: options.allowPrivateNetwork ?? true,
    beforeApply: options.beforeApply,
    mergeExports: !!options.eventsStream,
  });
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: runtime.services, identity, log });
  const { close: closeServer, ...grpc } = served(server, GitSyncServiceClient, 'git-sync');
  const owned = !options.queue;
  return {
    ...grpc,
    queue,
    databaseUrl: config.DATABASE_URL,
    store: runtime.store,
    workers: runtime.workers,
    async stop() {
      await closeServer();
      for (const step of runtime.close) await step();
      if (owned) await dropQueue(queue);
      await database?.drop();
    },
  };
}

/** The test's consumer, and the messages left on its subject (jobs queued with no worker to take them). */
export async function dropQueue(queue: { subject: string; consumer: string }) {
  const nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'git-sync-test', createLogger('t', 'silent'));
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.delete('JOBS', queue.consumer).catch(() => undefined);
    await jsm.streams.purge('JOBS', { filter: queue.subject });
  } finally {
    await nc.close();
  }
}

export type GitSyncHarness = Awaited<ReturnType<typeof startGitSync>>;

export { commitTo, gitIn, readRepo, startGitServer } from './git-server.ts';
