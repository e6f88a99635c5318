import { ReviewServiceClient } from '@quire/proto/review';
import { createLogger, startGrpcServer, unaryCall } from '@quire/service-kit';
import { publishJob, type QueueConfig } from '@quire/service-kit/job-queue';
import { connectNats } from '@quire/service-kit/nats';
import { cloneTemplate, served, testEventSink, testIdentity, testSuffix } from '@quire/service-kit/testing';
import { DEFAULT_PDF_OPTIONS, PdfPrinter } from '@quire/render/pdf';
import { DEFAULT_EXPORT_LIMITS } from '../src/domain/exports.ts';
import { connectClients } from '../src/main.ts';
import { startMergeRecords } from '../src/consumers/merges.ts';
import type { Deps } from '../src/rpc/deps.ts';
import { reviewService } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';
import { startExportWorkers } from '../src/worker/exports.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

export interface ReviewOptions {
  /** Where its domain events go (the gateway's tests), or nowhere. */
  eventsPrefix?: string;
  /** With `eventsPrefix`: the stream content's merge events are read from, to record the merges this instance did not. */
  eventsStream?: string;
  /** Export worker loops of this instance (0: API only); 1 by default. */
  workers?: number;
  ackWaitMs?: number;
  /** Another instance's export queue: replicas share its subject and consumer. */
  queue?: Pick<QueueConfig, 'subject' | 'consumer'>;
}

/**
 * The real review gRPC server and export workers on a free port, over a fresh copy of the
 * migrated template database, calling the orgs and content services at the given addresses, its
 * export jobs on a subject and consumer of the JOBS stream of its own. Used by the contract tests
 * here and by the gateway's end-to-end tests; `existing` makes another instance over the same database.
 */
export async function startReview(orgsAddress: string, contentAddress: string, existing?: { databaseUrl: string }, options: ReviewOptions = {}) {
  // Another instance over an existing database (replicas) leaves that database in place.
  const database = existing ? { url: existing.databaseUrl, drop: async () => {} } : await cloneTemplate('review');
  const { store, close } = openStore(database.url, 5);
  const log = createLogger('review-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const identity = testIdentity('review');
  const upstreams = connectClients(orgsAddress, contentAddress, identity);
  const printer = new PdfPrinter(DEFAULT_PDF_OPTIONS);
  // The counters' state events go where content's copies read them (the gateway's tests), or nowhere.
  const sink = await testEventSink('review', log, options.eventsPrefix);
  const suffix = testSuffix();
  const queue: QueueConfig = {
    ...(options.queue ?? { subject: `jobs.export.test.${suffix}`, consumer: `review-export-test-${suffix}` }),
    ackWaitMs: options.ackWaitMs ?? 30_000,
    maxDeliver: 3,
    // A run killed before its teardown leaves no consumer behind for long.
    inactiveMs: 10 * 60_000,
  };
  const nc = await connectNats(NATS_URL, 'review-test', log);
  // Bounds a test may lower (`deps.exportLimits.maxPdfPages = 1`, `deps.exportPdfTimeoutMs = 1`).
  const deps = {
    store,
    printer,
    events: sink.events,
    exportLimits: { ...DEFAULT_EXPORT_LIMITS },
    exportPdfTimeoutMs: undefined as number | undefined,
    exports: { publish: (msg) => publishJob(nc, queue.subject, msg) },
    ...upstreams,
  } satisfies Deps;
  const workers = await startExportWorkers(nc, queue, options.workers ?? 1, deps, log);
  const stopMerges = options.eventsStream && options.eventsPrefix ? await startMergeRecords(sink.nc, options.eventsStream, options.eventsPrefix, deps, log) : async () => {};
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [reviewService(deps, log)], identity, log });
  const { close: closeServer, ...grpc } = served(server, ReviewServiceClient, 'review');
  const owned = !options.queue;
  return {
    ...grpc,
    /**
     * Calls an RPC as `userId` within the gateway's deadline for review (60 s), not a test call's
     * 10 s: for the calls that print or zip, which a busy machine makes slow.
     */
    callLong: <Req, Res>(method: Parameters<typeof unaryCall<Req, Res>>[1], request: Req, userId: string) =>
      unaryCall<Req, Res>(grpc.client, method, request, { userId, requestId: 'test' }, { identity: testIdentity('gateway'), audience: 'review' }, 60_000),
    databaseUrl: database.url,
    /** What the server's handlers run on, for tests of the domain functions behind an RPC. */
    deps,
    queue,
    workers,
    async stop() {
      await closeServer();
      await workers.stop();
      await stopMerges();
      if (owned) {
        const jsm = await nc.jetstreamManager();
        await jsm.consumers.delete('JOBS', queue.consumer).catch(() => undefined);
        await jsm.streams.purge('JOBS', { filter: queue.subject });
      }
      await nc.drain();
      upstreams.close();
      await printer.close();
      await sink.close();
      await close();
      await database.drop();
    },
  };
}

export type ReviewHarness = Awaited<ReturnType<typeof startReview>>;
export { DEFAULT_EXPORT_LIMITS };
