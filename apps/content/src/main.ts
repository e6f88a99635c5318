import { GitSyncServiceClient, GitSyncServiceService } from '@quire/proto/gitsync';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { ReviewServiceClient, ReviewServiceService } from '@quire/proto/review';
import { cachedMemberships, connectUpstreams, serveGrpcService, type ComposedService, type Logger, type ServiceIdentity } from '@quire/service-kit';
import { connectNats, ensureStream, eventSink, STREAMS } from '@quire/service-kit/nats';
import { privateHosts } from '@quire/service-kit/outbound';
import { blobStoreOf, importLimitsOf, loadContentConfig, type ContentConfig } from './config.ts';
import { startCopyConsumer } from './consumers/copies.ts';
import { rebuildMissingCopies, type Owners } from './rpc/copies.ts';
import { contentService, spaceContentService } from './server.ts';
import { openStore } from './store/index.ts';

/** Review and git-sync at their addresses, asked as content itself (no user) for a Space's missing copies. */
export function connectOwners(reviewUrl: string, gitSyncUrl: string, identity: ServiceIdentity, log?: Logger): Owners & { close(): void } {
  const { clients, close } = connectUpstreams(
    identity,
    {
      review: { client: ReviewServiceClient, definition: ReviewServiceService, address: reviewUrl, audience: 'review' },
      gitSync: { client: GitSyncServiceClient, definition: GitSyncServiceService, address: gitSyncUrl, audience: 'git-sync' },
    },
    { log },
  );
  return {
    async counters(spaceIds) {
      return (await clients.review.batchGetSpaceCounters({ spaceIds }, {})).counters;
    },
    async gitLinks(spaceIds) {
      const { items } = await clients.gitSync.batchGetGitInfo({ spaceIds }, {});
      return items.map((i) => ({
        spaceId: i.spaceId,
        version: i.version,
        repoName: i.repoName,
        installationProvider: i.installationProvider,
        integration: i.integration,
        url: i.url,
        updatedAt: i.updatedAt,
      }));
    },
    close,
  };
}

/** The composition root: store, clients of orgs and of the copies' owners, NATS events and the copies' consumer, the two gRPC services. */
export async function compose(config: ContentConfig, identity: ServiceIdentity, log: Logger): Promise<ComposedService> {
  // Read where users' URLs are fetched; checked here so that a typo stops the start.
  privateHosts();
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const upstreams = connectUpstreams(identity, { orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: config.ORGS_URL, audience: 'orgs' } }, { log });
  const owners = connectOwners(config.REVIEW_URL, config.GIT_SYNC_URL, identity, log);
  const nc = await connectNats(config.NATS_URL, 'content', log);
  await ensureStream(nc, { ...STREAMS.events, name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const stopCopies = await startCopyConsumer(nc, config.EVENTS_STREAM, config.EVENTS_SUBJECT_PREFIX, store, log);
  const deps = {
    store,
    owners,
    orgs: cachedMemberships(upstreams.clients.orgs, config.MEMBERSHIP_CACHE_MS),
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
    checks,
    services: [contentService(deps, log), spaceContentService(deps, log)],
    close: [stopCopies, upstreams.close, () => owners.close(), () => nc.drain(), close],
  };
}

await serveGrpcService(import.meta.url, 'content', { load: loadContentConfig, port: (c) => c.CONTENT_PORT }, compose);
