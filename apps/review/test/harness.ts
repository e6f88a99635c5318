import { ReviewServiceClient } from '@quire/proto/review';
import { createClient, createLogger, startGrpcServer } from '@quire/service-kit';
import { callAs, cloneTemplate, testEventSink, testIdentity } from '@quire/service-kit/testing';
import { DEFAULT_PDF_OPTIONS, PdfPrinter } from '@quire/render/pdf';
import { DEFAULT_EXPORT_LIMITS } from '../src/domain/exports.ts';
import { connectUpstreams } from '../src/deps-clients.ts';
import { startMergeConsumer } from '../src/merges-consumer.ts';
import { reviewService } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';

/**
 * The real review gRPC server on a free port, over a fresh copy of the migrated template
 * database, calling the orgs and content services at the given addresses. Used by the contract
 * tests here and by the gateway's end-to-end tests; `existing` makes another instance over the same database.
 * `eventsPrefix` publishes its events where content's copies read them; with `eventsStream`, it
 * also records the merges content announces there.
 */
export async function startReview(orgsAddress: string, contentAddress: string, existing?: { databaseUrl: string }, options: { eventsPrefix?: string; eventsStream?: string } = {}) {
  // Another instance over an existing database (replicas) leaves that database in place.
  const database = existing ? { url: existing.databaseUrl, drop: async () => {} } : await cloneTemplate('review');
  const { store, close } = openStore(database.url, 5);
  const log = createLogger('review-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const identity = testIdentity('review');
  const upstreams = connectUpstreams(orgsAddress, contentAddress, identity);
  const printer = new PdfPrinter(DEFAULT_PDF_OPTIONS);
  // The counters' state events go where content's copies read them (the gateway's tests), or nowhere.
  const sink = await testEventSink('review', log, options.eventsPrefix);
  // Bounds a test may lower (`deps.exportLimits.maxPdfPages = 1`).
  const deps = { store, printer, events: sink.events, exportLimits: { ...DEFAULT_EXPORT_LIMITS }, ...upstreams };
  // Content's merge events record the merges this instance did not, when it reads where content publishes.
  const stopMerges = options.eventsStream && options.eventsPrefix ? await startMergeConsumer(sink.nc, options.eventsStream, options.eventsPrefix, deps, log) : async () => {};
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [reviewService(deps, log)], identity, log });
  const address = `127.0.0.1:${server.port}`;
  const client = createClient(ReviewServiceClient, address);
  return {
    address,
    client,
    databaseUrl: database.url,
    /** What the server's handlers run on, for tests of the domain functions behind an RPC. */
    deps,
    /** Calls an RPC as `userId`. */
    call: callAs(client, 'review'),
    /** Cuts every connection at once and answers nothing more, as a killed instance would (stop() still cleans up). */
    kill: () => server.server.forceShutdown(),
    async stop() {
      client.close();
      await server.shutdown(1000);
      await stopMerges();
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
