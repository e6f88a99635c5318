import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { GitSyncServiceClient, GitSyncServiceService } from '@quire/proto/gitsync';
import { InsightsServiceClient, InsightsServiceService } from '@quire/proto/insights';
import { IntegrationsServiceClient, IntegrationsServiceService } from '@quire/proto/integrations';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { ReviewServiceClient, ReviewServiceService } from '@quire/proto/review';
import { SitesServiceClient, SitesServiceService } from '@quire/proto/sites';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { SERVICE_NAMES } from '@quire/proto';
import { createClient, promiseClient, type PromiseClient, type ServiceIdentity } from '@quire/service-kit';
import type { Client } from '@grpc/grpc-js';
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
  channels: { name: string; client: Client }[];
  /** The gateway's identity, which also signs the grants it hands browsers (members' site access). */
  identity: ServiceIdentity;
}

export function connectServices(
  config: Pick<GatewayConfig, 'ORGS_URL' | 'CONTENT_URL' | 'INTEGRATIONS_URL' | 'REVIEW_URL' | 'INSIGHTS_URL' | 'SITES_URL' | 'GIT_SYNC_URL' | 'GRPC_TIMEOUT_MS'>,
  identity: ServiceIdentity,
): Services {
  const orgs = createClient(OrgsServiceClient, config.ORGS_URL);
  const content = createClient(ContentServiceClient, config.CONTENT_URL);
  const spaceContent = createClient(SpaceContentServiceClient, config.CONTENT_URL);
  const integrations = createClient(IntegrationsServiceClient, config.INTEGRATIONS_URL);
  const review = createClient(ReviewServiceClient, config.REVIEW_URL);
  const insights = createClient(InsightsServiceClient, config.INSIGHTS_URL);
  const sites = createClient(SitesServiceClient, config.SITES_URL);
  const gitSync = createClient(GitSyncServiceClient, config.GIT_SYNC_URL);
  return {
    orgs: promiseClient(orgs, OrgsServiceService, { identity, audience: 'orgs' }, config.GRPC_TIMEOUT_MS),
    content: promiseClient(content, ContentServiceService, { identity, audience: 'content' }, config.GRPC_TIMEOUT_MS),
    // An import fetches a website within the content service's own time bound (30 s by default).
    spaceContent: promiseClient(spaceContent, SpaceContentServiceService, { identity, audience: 'content' }, config.GRPC_TIMEOUT_MS, {
      importContent: Math.max(config.GRPC_TIMEOUT_MS, 60_000),
    }),
    integrations: promiseClient(integrations, IntegrationsServiceService, { identity, audience: 'integrations' }, config.GRPC_TIMEOUT_MS),
    // Merges of large spaces take longer than a read.
    review: promiseClient(review, ReviewServiceService, { identity, audience: 'review' }, Math.max(config.GRPC_TIMEOUT_MS, 60_000)),
    insights: promiseClient(insights, InsightsServiceService, { identity, audience: 'insights' }, config.GRPC_TIMEOUT_MS),
    sites: promiseClient(sites, SitesServiceService, { identity, audience: 'sites' }, config.GRPC_TIMEOUT_MS),
    gitSync: promiseClient(gitSync, GitSyncServiceService, { identity, audience: 'git-sync' }, config.GRPC_TIMEOUT_MS),
    channels: [
      { name: SERVICE_NAMES.orgs, client: orgs },
      { name: SERVICE_NAMES.content, client: content },
      { name: SERVICE_NAMES.spaceContent, client: spaceContent },
      { name: SERVICE_NAMES.integrations, client: integrations },
      { name: SERVICE_NAMES.review, client: review },
      { name: SERVICE_NAMES.insights, client: insights },
      { name: SERVICE_NAMES.sites, client: sites },
      { name: SERVICE_NAMES.gitSync, client: gitSync },
    ],
    identity,
  };
}
