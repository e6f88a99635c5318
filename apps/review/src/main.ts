import { createLogger, loadServiceIdentity, runGrpcService } from '@quire/service-kit';
import { PdfPrinter, pdfOptions } from '@quire/render/pdf';
import { connectNats, eventSink } from '@quire/service-kit/nats';
import { exportLimits, loadReviewConfig } from './config.ts';
import { connectUpstreams } from './deps-clients.ts';
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
  return {
    log,
    host: config.GRPC_HOST,
    port: config.REVIEW_PORT,
    identity,
    metricsPort: config.METRICS_PORT,
    checks,
    services: [reviewService({ store, printer, events, exportLimits: exportLimits(config), ...upstreams }, log)],
    close: [() => upstreams.close(), () => printer.close(), () => nc.drain(), close],
  };
});
