import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { GitSyncServiceClient, GitSyncServiceService } from '@quire/proto/gitsync';
import { InsightsServiceClient, InsightsServiceService } from '@quire/proto/insights';
import { IntegrationsServiceClient, IntegrationsServiceService } from '@quire/proto/integrations';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { ReviewServiceClient, ReviewServiceService } from '@quire/proto/review';
import { SitesServiceClient, SitesServiceService } from '@quire/proto/sites';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { connectUpstreams, createLogger, type Channel, type PromiseClient, type ServiceIdentity } from '@quire/service-kit';
import type { GatewayConfig } from './config.ts';

/** One long-lived channel per service the gateway calls, created at start. */
export interface Services {
  orgs: PromiseClient<OrgsServiceClient>;
  content: PromiseClient<ContentServiceClient>;
  /** The content service's revisions, pages, files, search: same address as `content`. */
  spaceContent: PromiseClient<SpaceContentServiceClient>;
  integrations: PromiseClient<IntegrationsServiceClient>;
  review: PromiseClient<ReviewServiceClient>;
  insights: PromiseClient<InsightsServiceClient>;
  sites: PromiseClient<SitesServiceClient>;
  gitSync: PromiseClient<GitSyncServiceClient>;
  /** Every channel with its service name, for readiness and shutdown. */
  channels: Channel[];
  /** The gateway's identity, which also signs the grants it hands browsers (members' site access). */
  identity: ServiceIdentity;
}

export function connectServices(
  config: Pick<GatewayConfig, 'ORGS_URL' | 'CONTENT_URL' | 'INTEGRATIONS_URL' | 'REVIEW_URL' | 'INSIGHTS_URL' | 'SITES_URL' | 'GIT_SYNC_URL' | 'GRPC_TIMEOUT_MS' | 'LOG_LEVEL'>,
  identity: ServiceIdentity,
): Services {
  const { clients, channels } = connectUpstreams(
    identity,
    {
      orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: config.ORGS_URL, audience: 'orgs' },
      content: { client: ContentServiceClient, definition: ContentServiceService, address: config.CONTENT_URL, audience: 'content' },
      // An import fetches a website within the content service's own time bound (30 s by default).
      spaceContent: {
        client: SpaceContentServiceClient,
        definition: SpaceContentServiceService,
        address: config.CONTENT_URL,
        audience: 'content',
        slow: { importContent: Math.max(config.GRPC_TIMEOUT_MS, 60_000) },
      },
      integrations: { client: IntegrationsServiceClient, definition: IntegrationsServiceService, address: config.INTEGRATIONS_URL, audience: 'integrations' },
      // Merges of large spaces take longer than a read.
      review: {
        client: ReviewServiceClient,
        definition: ReviewServiceService,
        address: config.REVIEW_URL,
        audience: 'review',
        timeoutMs: Math.max(config.GRPC_TIMEOUT_MS, 60_000),
      },
      insights: { client: InsightsServiceClient, definition: InsightsServiceService, address: config.INSIGHTS_URL, audience: 'insights' },
      sites: { client: SitesServiceClient, definition: SitesServiceService, address: config.SITES_URL, audience: 'sites' },
      gitSync: { client: GitSyncServiceClient, definition: GitSyncServiceService, address: config.GIT_SYNC_URL, audience: 'git-sync' },
    },
    // Failed calls are logged at the gateway's level.
    { timeoutMs: config.GRPC_TIMEOUT_MS, log: createLogger('gateway', config.LOG_LEVEL) },
  );
  return { ...clients, channels, identity };
}
