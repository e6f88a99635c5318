import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { cachedMemberships, createClient, createLogger, loadServiceIdentity, promiseClient, runGrpcService } from '@quire/service-kit';
import { connectNats, ensureStream, eventSink, STREAMS } from '@quire/service-kit/nats';
import { startCopyConsumer } from './copies-consumer.ts';
import { connectOwners } from './owners.ts';
import { rebuildMissingCopies } from './rpc/copies.ts';
import { blobStoreOf, importLimitsOf, loadContentConfig } from './config.ts';
import { contentService, spaceContentService } from './server.ts';
import { openStore } from './store/index.ts';

await runGrpcService('content', async () => {
  const config = loadContentConfig();
  const log = createLogger('content', config.LOG_LEVEL);
  const identity = loadServiceIdentity('content', config);
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const orgsClient = createClient(OrgsServiceClient, config.ORGS_URL);
  const nc = await connectNats(config.NATS_URL, 'content', log);
  const owners = connectOwners(config.REVIEW_URL, config.GIT_SYNC_URL, identity);
  await ensureStream(nc, { ...STREAMS.events, name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const stopCopies = await startCopyConsumer(nc, config.EVENTS_STREAM, config.EVENTS_SUBJECT_PREFIX, store, log);
  const deps = {
    store,
    owners,
    orgs: cachedMemberships(promiseClient(orgsClient, OrgsServiceService, { identity, audience: 'orgs' }), config.MEMBERSHIP_CACHE_MS),
    events: eventSink(nc, 'content', config.EVENTS_SUBJECT_PREFIX, log),
    blobs: blobStoreOf(config),
    appUrl: config.QUIRE_APP_URL,
    importLimits: importLimitsOf(config),
  };
  // Spaces made before the copies (or whose owner was away) get theirs in the background; reads ask for any still missing.
  rebuildMissingCopies(deps, log)
    .then((n) => n && log.info({ spaces: n }, 'missing space copies asked of their owners'))
    .catch((err: unknown) => log.error({ err }, 'asking for missing space copies failed; reads ask for them instead'));
  return {
    log,
    host: config.GRPC_HOST,
    port: config.CONTENT_PORT,
    identity,
    metricsPort: config.METRICS_PORT,
    checks,
    services: [contentService(deps, log), spaceContentService(deps, log)],
    close: [stopCopies, () => orgsClient.close(), () => owners.close(), () => nc.drain(), close],
  };
});
