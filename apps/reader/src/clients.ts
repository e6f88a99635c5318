import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { InsightsServiceClient, InsightsServiceService } from '@quire/proto/insights';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { SitesServiceClient, SitesServiceService } from '@quire/proto/sites';
import { SERVICE_NAMES } from '@quire/proto';
import { createClient, promiseClient, type PromiseClient, type ServiceIdentity } from '@quire/service-kit';
import type { Client } from '@grpc/grpc-js';
import type { ReaderConfig } from './config.ts';

/** The services the reader calls, one long-lived channel each, built like the gateway's; every call is signed as the reader. */
export interface Services {
  orgs: PromiseClient<OrgsServiceClient>;
  sites: PromiseClient<SitesServiceClient>;
  /** Spaces (their active revision id); `spaceContent` their revisions, pages and files. */
  content: PromiseClient<ContentServiceClient>;
  spaceContent: PromiseClient<SpaceContentServiceClient>;
  insights: PromiseClient<InsightsServiceClient>;
  channels: { name: string; client: Client }[];
}

export function connectServices(config: Pick<ReaderConfig, 'ORGS_URL' | 'SITES_URL' | 'CONTENT_URL' | 'INSIGHTS_URL' | 'GRPC_TIMEOUT_MS'>, identity: ServiceIdentity): Services {
  const orgs = createClient(OrgsServiceClient, config.ORGS_URL);
  const sites = createClient(SitesServiceClient, config.SITES_URL);
  const content = createClient(ContentServiceClient, config.CONTENT_URL);
  const spaceContent = createClient(SpaceContentServiceClient, config.CONTENT_URL);
  const insights = createClient(InsightsServiceClient, config.INSIGHTS_URL);
  return {
    orgs: promiseClient(orgs, OrgsServiceService, { identity, audience: 'orgs' }, config.GRPC_TIMEOUT_MS),
    sites: promiseClient(sites, SitesServiceService, { identity, audience: 'sites' }, config.GRPC_TIMEOUT_MS),
    content: promiseClient(content, ContentServiceService, { identity, audience: 'content' }, config.GRPC_TIMEOUT_MS),
    spaceContent: promiseClient(spaceContent, SpaceContentServiceService, { identity, audience: 'content' }, config.GRPC_TIMEOUT_MS),
    insights: promiseClient(insights, InsightsServiceService, { identity, audience: 'insights' }, config.GRPC_TIMEOUT_MS),
    channels: [
      { name: SERVICE_NAMES.orgs, client: orgs },
      { name: SERVICE_NAMES.sites, client: sites },
      { name: SERVICE_NAMES.content, client: content },
      { name: SERVICE_NAMES.spaceContent, client: spaceContent },
      { name: SERVICE_NAMES.insights, client: insights },
    ],
  };
}
