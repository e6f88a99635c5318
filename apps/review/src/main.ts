import { createLogger, loadServiceIdentity, runGrpcService } from '@quire/service-kit';
import { PdfPrinter, pdfOptions } from '@quire/render/pdf';
import { connectNats, ensureStream, eventSink, STREAMS } from '@quire/service-kit/nats';
import { exportLimits, loadReviewConfig } from './config.ts';
import { connectUpstreams } from './deps-clients.ts';
import { startMergeConsumer } from './merges-consumer.ts';
import { settleMerges } from './rpc/merges.ts';
import { reviewService } from './server.ts';
import { openStore } from './store/index.ts';

await runGrpcService('review', async () => {
  const config = loadReviewConfig();
  const log = createLogger('review', config.LOG_LEVEL);
  const identity = loadServiceIdentity('review', config);
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const upstreams = connectUpstreams(config.ORGS_URL, config.CONTENT_URL, identity);
  const printer = new PdfPrinter(pdfOptions(config));
  const nc = await connectNats(config.NATS_URL, 'review', log);
  const events = eventSink(nc, 'review', config.EVENTS_SUBJECT_PREFIX, log);
  const deps = { store, printer, events, exportLimits: exportLimits(config), ...upstreams };
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
    checks,
    services: [reviewService(deps, log)],
    close: [stopMerges, () => upstreams.close(), () => printer.close(), () => nc.drain(), close],
  };
});
