import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { connectUpstreams, serveGrpcService, watchConsumer, type ComposedService, type Logger, type ServiceIdentity } from '@quire/service-kit';
import { publishJob } from '@quire/service-kit/job-queue';
import { PdfPrinter, pdfOptions } from '@quire/render/pdf';
import { connectNats, ensureStream, eventSink, natsCheck, STREAMS } from '@quire/service-kit/nats';
import { exportLimits, exportQueue, loadReviewConfig, type ReviewConfig } from './config.ts';
import { startMergeRecords } from './consumers/merges.ts';
import { MERGE_TIMEOUT_MS } from './domain/change-requests.ts';
import { settleMerges } from './rpc/merges.ts';
import type { Deps } from './rpc/deps.ts';
import { reviewService } from './server.ts';
import { openStore } from './store/index.ts';
import { startExportWorkers } from './worker/exports.ts';

/** The clients of orgs and content (both of content's services share one address), and their closing. */
export function connectClients(orgsUrl: string, contentUrl: string, identity: ServiceIdentity, log?: Logger) {
  const { clients, close } = connectUpstreams(
    identity,
    {
      orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: orgsUrl, audience: 'orgs' },
      content: { client: ContentServiceClient, definition: ContentServiceService, address: contentUrl, audience: 'content' },
      // Merges of large spaces take longer than a read.
      spaceContent: { client: SpaceContentServiceClient, definition: SpaceContentServiceService, address: contentUrl, audience: 'content', timeoutMs: MERGE_TIMEOUT_MS },
    },
    { log },
  );
  return { ...clients, close };
}

/** The composition root: store, clients, the PDF printer, NATS events, export workers and the merges' consumer, the gRPC service. */
export async function compose(config: ReviewConfig, identity: ServiceIdentity, log: Logger): Promise<ComposedService> {
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const upstreams = connectClients(config.ORGS_URL, config.CONTENT_URL, identity, log);
  const printer = new PdfPrinter(pdfOptions(config));
  const nc = await connectNats(config.NATS_URL, 'review', log);
  const events = eventSink(nc, 'review', config.EVENTS_SUBJECT_PREFIX, log);
  const queue = exportQueue(config);
  const deps: Deps = {
    store,
    printer,
    events,
    exportLimits: exportLimits(config),
    exportPdfTimeoutMs: config.EXPORT_PDF_TIMEOUT_MS,
    exports: { publish: (msg) => publishJob(nc, queue.subject, msg) },
    ...upstreams,
  };
  const workers = await startExportWorkers(nc, queue, config.EXPORT_WORKERS, deps, log);
  const forgetConsumer = watchConsumer(nc, STREAMS.jobs.name, queue.consumer);
  await ensureStream(nc, { ...STREAMS.events, name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const stopMerges = await startMergeRecords(nc, config.EVENTS_STREAM, config.EVENTS_SUBJECT_PREFIX, deps, log);
  // Merges this process (or another) left under way when it stopped are settled in the background; reads settle them too.
  settleMerges(deps, log)
    .then((n) => n && log.info({ merged: n }, 'change requests merged by content before a stop recorded as merged'))
    .catch((err: unknown) => log.error({ err }, 'settling merges left under way failed; reads settle them instead'));
  return {
    checks: { ...checks, nats: natsCheck(nc) },
    services: [reviewService(deps, log)],
    close: [forgetConsumer, stopMerges, () => workers.stop(), upstreams.close, () => printer.close(), () => nc.drain(), close],
  };
}

await serveGrpcService(import.meta.url, 'review', { load: loadReviewConfig, port: (c) => c.REVIEW_PORT }, compose);
