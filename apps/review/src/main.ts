import { createLogger, loadServiceIdentity, runGrpcService, watchConsumer } from '@quire/service-kit';
import { publishJob } from '@quire/service-kit/job-queue';
import { PdfPrinter, pdfOptions } from '@quire/render/pdf';
import { connectNats, ensureStream, eventSink, natsCheck, STREAMS } from '@quire/service-kit/nats';
import { exportLimits, exportQueue, loadReviewConfig } from './config.ts';
import { connectUpstreams } from './deps-clients.ts';
import { startMergeConsumer } from './merges-consumer.ts';
import { settleMerges } from './rpc/merges.ts';
import type { Deps } from './rpc/deps.ts';
import { reviewService } from './server.ts';
import { openStore } from './store/index.ts';
import { startExportWorkers } from './worker/exports.ts';

await runGrpcService('review', async () => {
  const config = loadReviewConfig();
  const log = createLogger('review', config.LOG_LEVEL);
  const identity = loadServiceIdentity('review', config);
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const upstreams = connectUpstreams(config.ORGS_URL, config.CONTENT_URL, identity);
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
  const stopMerges = await startMergeConsumer(nc, config.EVENTS_STREAM, config.EVENTS_SUBJECT_PREFIX, deps, log);
  // Merges this process (or another) left under way when it stopped are settled in the background; reads settle them too.
  settleMerges(deps, log)
    .then((n) => n && log.info({ merged: n }, 'change requests merged by content before a stop recorded as merged'))
    .catch((err: unknown) => log.error({ err }, 'settling merges left under way failed; reads settle them instead'));
  return {
    log,
    host: config.GRPC_HOST,
    port: config.REVIEW_PORT,
    identity,
    metricsPort: config.METRICS_PORT,
    checks: { ...checks, nats: natsCheck(nc) },
    services: [reviewService(deps, log)],
    close: [forgetConsumer, stopMerges, () => workers.stop(), () => upstreams.close(), () => printer.close(), () => nc.drain(), close],
  };
});
