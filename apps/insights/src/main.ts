import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { cachedMemberships, connectUpstreams, serveGrpcService, watchConsumer, type Logger, type ServiceBinding, type ServiceIdentity } from '@quire/service-kit';
import { connectNats, ensurePullConsumer, ensureStream, natsCheck, STREAMS, trimAcknowledged } from '@quire/service-kit/nats';
import { loadInsightsConfig, type InsightsConfig } from './config.ts';
import { EventPublisher } from './ingest/publisher.ts';
import { maxUnacked, startWriter, type Writer } from './ingest/writer.ts';
import { insightsService } from './server.ts';
import { openStore, type Store } from './store/index.ts';

const NS_PER_MS = 1_000_000;
/** How often the events ClickHouse has are removed from the stream. */
const TRIM_MS = 10_000;

/**
 * The composition root: the gRPC handlers and the consumer writing to ClickHouse share one store,
 * since the embedded engine allows one data directory per process.
 */
export async function compose(config: InsightsConfig, identity: ServiceIdentity, log: Logger, now: () => Date = () => new Date()) {
  const nc = await connectNats(config.NATS_URL, 'insights', log);
  const subject = `${config.INSIGHTS_SUBJECT_PREFIX}.events`;
  await ensureStream(nc, { ...STREAMS.insights, name: config.INSIGHTS_STREAM, subjects: [`${config.INSIGHTS_SUBJECT_PREFIX}.>`] });
  await ensurePullConsumer(nc, config.INSIGHTS_STREAM, {
    durable_name: config.INSIGHTS_CONSUMER,
    filter_subject: subject,
    ack_wait: config.INSIGHTS_ACK_WAIT_MS * NS_PER_MS,
    // Redelivered for as long as ClickHouse is away: the stream's max_age bounds the wait.
    max_deliver: -1,
    // Bounds what a writer holds in memory while ClickHouse is away (see startWriter).
    max_ack_pending: maxUnacked(config.INSIGHTS_BATCH_MESSAGES),
  });
  const store: Store = await openStore({
    clickhouseUrl: config.CLICKHOUSE_URL,
    clickhouseDatabase: config.CLICKHOUSE_DATABASE,
    chdbPath: config.INSIGHTS_CHDB_PATH,
    retentionDays: config.INSIGHTS_RETENTION_DAYS,
  });
  const forgetConsumer = watchConsumer(nc, config.INSIGHTS_STREAM, config.INSIGHTS_CONSUMER);
  const js = nc.jetstream();
  const consumer = await js.consumers.get(config.INSIGHTS_STREAM, config.INSIGHTS_CONSUMER);
  let writer: Writer | undefined;
  const startWriting = () => {
    writer ??= startWriter(consumer, store, log, config.INSIGHTS_BATCH_MESSAGES);
  };
  const stopWriting = async () => {
    await writer?.stop();
    writer = undefined;
  };
  startWriting();
  // The stream keeps events until ClickHouse has them, not for its whole max_age (a week); any
  // replica may trim, as the floor is the shared consumer's.
  const trimStream = () =>
    trimAcknowledged(nc, config.INSIGHTS_STREAM, config.INSIGHTS_CONSUMER).catch((err: unknown) => {
      log.warn({ err }, 'removing stored events from the stream failed; tried again later');
      return 0;
    });
  const trimmer = setInterval(trimStream, TRIM_MS).unref();
  const upstreams = connectUpstreams(identity, { orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: config.ORGS_URL, audience: 'orgs' } }, { log });
  const publisher = new EventPublisher(js, subject, nc.info?.max_payload ?? 1024 * 1024, log);
  const service: ServiceBinding = insightsService({ store, publisher, orgs: cachedMemberships(upstreams.clients.orgs, config.MEMBERSHIP_CACHE_MS), now }, log);

  return {
    services: [service],
    store,
    nc,
    /** Stops and restarts the consumer: tests play a crashed consumer with them. */
    stopWriting,
    startWriting,
    /** Removes from the stream the events ClickHouse has (run every TRIM_MS); how many. */
    trimStream,
    /** NATS and ClickHouse: the service is SERVING while both answer. */
    checks: {
      nats: natsCheck(nc),
      clickhouse: async () => {
        if (!(await store.healthy())) throw new Error('ClickHouse does not answer');
      },
    },
    /** Closes in dependency order: the consumer first, so no insert runs on a closed store. */
    close: [() => clearInterval(trimmer), forgetConsumer, stopWriting, () => nc.drain(), upstreams.close, () => store.close()],
  };
}

await serveGrpcService(import.meta.url, 'insights', { load: loadInsightsConfig, port: (c) => c.INSIGHTS_PORT }, (config, identity, log) => compose(config, identity, log));
