import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { createClient, promiseClient, type Logger, type ServiceBinding } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { connectNats } from '@quire/service-kit/nats';
import { privateNetworkAllowed } from '@quire/service-kit/outbound';
import { loadSecretsKey } from '@quire/service-kit/sealed';
import type { GitSyncConfig } from './config.ts';
import { gitSyncService } from './server.ts';
import { openStore, type Store } from './store/index.ts';
import { ensureQueue, publishJob, startWorkers, type Workers } from './worker/consumer.ts';
import type { RunnerDeps } from './worker/jobs.ts';

// Content calls of a job move whole revisions (a thousand pages): longer than a request's deadline.
const CONTENT_TIMEOUT_MS = 120_000;

export interface GitSyncRuntime {
  store: Store;
  services: ServiceBinding[];
  workers: Workers;
  close: (() => Promise<unknown> | unknown)[];
}

/** Everything a git-sync process runs beside its gRPC server: store, clients, queue and workers. */
export async function startRuntime(
  config: GitSyncConfig,
  log: Logger,
  options: Pick<RunnerDeps, 'beforeApply'> & { allowPrivateNetwork?: boolean } = {},
): Promise<GitSyncRuntime> {
  const secretsKey = loadSecretsKey(config.QUIRE_SECRETS_KEY, (msg) => log.warn(msg), 'credentials of queued jobs cannot be read by other replicas or after a restart');
  const allowPrivateNetwork = options.allowPrivateNetwork ?? privateNetworkAllowed();
  const { store, close: closeStore } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const contentClient = createClient(ContentServiceClient, config.CONTENT_URL);
  const spaceContentClient = createClient(SpaceContentServiceClient, config.CONTENT_URL);
  const content = promiseClient(contentClient, ContentServiceService);
  const spaceContent = promiseClient(spaceContentClient, SpaceContentServiceService, CONTENT_TIMEOUT_MS);
  const nc = await connectNats(config.NATS_URL, 'git-sync', log);
  const queue = {
    subject: config.GIT_SYNC_SUBJECT,
    consumer: config.GIT_SYNC_CONSUMER,
    ackWaitMs: config.GIT_SYNC_ACK_WAIT_MS,
    maxDeliver: config.GIT_SYNC_MAX_DELIVER,
    inactiveMs: config.GIT_SYNC_CONSUMER_INACTIVE_MS,
  };
  await ensureQueue(nc, queue);
  const workers = await startWorkers(
    nc,
    queue,
    config.GIT_SYNC_WORKERS,
    { store, content: spaceContent, secretsKey, newId, workDir: config.GIT_SYNC_WORK_DIR, jobTimeoutMs: config.GIT_SYNC_JOB_TIMEOUT_MS, allowPrivateNetwork, log, beforeApply: options.beforeApply },
    log,
  );
  const service = gitSyncService(
    { store, content, publish: (msg) => publishJob(nc, config.GIT_SYNC_SUBJECT, msg), secretsKey, allowPrivateNetwork, newId },
    log,
  );
  return {
    store,
    services: [service],
    workers,
    close: [
      () => workers.stop(),
      () => nc.drain(),
      () => contentClient.close(),
      () => spaceContentClient.close(),
      closeStore,
    ],
  };
}
