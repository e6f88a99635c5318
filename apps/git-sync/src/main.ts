import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { connectUpstreams, serveGrpcService, watchConsumer, type ComposedService, type Logger, type ServiceIdentity } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { ensureQueue, publishJob, startWorkers, type Workers } from '@quire/service-kit/job-queue';
import { connectNats, ensureStream, eventSink, natsCheck, STREAMS } from '@quire/service-kit/nats';
import { privateHosts, privateNetworkAllowed } from '@quire/service-kit/outbound';
import { loadSecretsKeys } from '@quire/service-kit/sealed';
import { loadGitSyncConfig, type GitSyncConfig } from './config.ts';
import { startMergeExports } from './consumers/merges.ts';
import { gitSyncService } from './server.ts';
import { openStore, type Store } from './store/index.ts';
import { runJob, type JobMessage, type RunnerDeps } from './worker/jobs.ts';
import { startPoller } from './worker/poller.ts';

// Content calls of a job move whole revisions (a thousand pages): longer than a request's deadline.
const CONTENT_TIMEOUT_MS = 120_000;

/** The composition root: store, content's clients, the job queue and its workers, the gRPC service; its health needs the database and NATS. */
export async function compose(
  config: GitSyncConfig,
  identity: ServiceIdentity,
  log: Logger,
  // mergeExports false: no consumer of merges (tests whose events go to no stream).
  options: Pick<RunnerDeps, 'beforeApply'> & { allowPrivateNetwork?: boolean; mergeExports?: boolean } = {},
): Promise<ComposedService & { store: Store; workers: Workers }> {
  // Read where users' URLs are fetched; checked here so that a typo stops the start.
  privateHosts();
  const secretsKey = loadSecretsKeys(config, (msg) => log.warn(msg), 'credentials of queued jobs cannot be read by other replicas or after a restart');
  const allowPrivateNetwork = options.allowPrivateNetwork ?? privateNetworkAllowed();
  const allowFileRemotes = config.QUIRE_ALLOW_FILE_REMOTES;
  const { store, close: closeStore, checks: storeChecks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  // After a key rotation (the new key current, the old one previous) the webhooks' sealed values
  // move to the new key here, so that the previous key can be removed (docs/operations.md).
  const resealed = await store.resealWebhooks(secretsKey);
  if (resealed.unreadable.length > 0) log.warn(resealed, 'git webhooks whose sealed values no configured QUIRE_SECRETS_KEY opens: set them up again');
  else if (resealed.resealed > 0) log.info(resealed, 'git webhooks resealed with the current QUIRE_SECRETS_KEY');
  const upstreams = connectUpstreams(
    identity,
    {
      content: { client: ContentServiceClient, definition: ContentServiceService, address: config.CONTENT_URL, audience: 'content' },
      spaceContent: { client: SpaceContentServiceClient, definition: SpaceContentServiceService, address: config.CONTENT_URL, audience: 'content', timeoutMs: CONTENT_TIMEOUT_MS },
      orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: config.ORGS_URL, audience: 'orgs' },
    },
    { log },
  );
  const { content, spaceContent, orgs } = upstreams.clients;
  const nc = await connectNats(config.NATS_URL, 'git-sync', log);
  const queue = {
    subject: config.GIT_SYNC_SUBJECT,
    consumer: config.GIT_SYNC_CONSUMER,
    ackWaitMs: config.GIT_SYNC_ACK_WAIT_MS,
    maxDeliver: config.GIT_SYNC_MAX_DELIVER,
    inactiveMs: config.GIT_SYNC_CONSUMER_INACTIVE_MS,
  };
  await ensureQueue(nc, queue);
  const forgetConsumer = watchConsumer(nc, STREAMS.jobs.name, queue.consumer);
  const events = eventSink(nc, 'git-sync', config.EVENTS_SUBJECT_PREFIX, log);
  const runner: RunnerDeps = {
    store,
    events,
    content: spaceContent,
    spaces: content,
    secretsKey,
    newId,
    workDir: config.GIT_SYNC_WORK_DIR,
    jobTimeoutMs: config.GIT_SYNC_JOB_TIMEOUT_MS,
    allowPrivateNetwork,
    allowFileRemotes,
    log,
    beforeApply: options.beforeApply,
  };
  const workers = await startWorkers(nc, queue, config.GIT_SYNC_WORKERS, 'git-sync', (msg, last) => runJob(runner, msg, last), log);
  const deps = {
    store,
    content,
    publish: (msg: JobMessage) => publishJob(nc, config.GIT_SYNC_SUBJECT, msg),
    events,
    secretsKey,
    allowPrivateNetwork,
    allowFileRemotes,
    newId,
  };
  const service = gitSyncService(deps, log);
  const poller = config.GIT_SYNC_POLL_TICK_MS > 0 ? startPoller(deps, config.GIT_SYNC_POLL_TICK_MS, log) : undefined;
  let stopMerges = async () => {};
  if (options.mergeExports !== false) {
    await ensureStream(nc, { ...STREAMS.events, name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
    stopMerges = await startMergeExports(nc, config.EVENTS_STREAM, config.EVENTS_SUBJECT_PREFIX, { ...deps, orgs }, log);
  }
  return {
    store,
    services: [service],
    workers,
    checks: { ...storeChecks, nats: natsCheck(nc) },
    close: [forgetConsumer, stopMerges, async () => poller?.stop(), () => workers.stop(), () => nc.drain(), upstreams.close, closeStore],
  };
}

await serveGrpcService(import.meta.url, 'git-sync', { load: loadGitSyncConfig, port: (c) => c.GIT_SYNC_PORT }, (config, identity, log) => compose(config, identity, log));
