import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { InsightsServiceClient, InsightsServiceService } from '@quire/proto/insights';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { SitesServiceClient, SitesServiceService } from '@quire/proto/sites';
import { connectUpstreams, createLogger, type ServiceIdentity } from '@quire/service-kit';
import type { ReaderConfig } from './config.ts';

/** The services the reader calls, one long-lived channel each, made as the gateway's are; every call is signed as the reader. */
export function connectServices(
  config: Pick<ReaderConfig, 'ORGS_URL' | 'SITES_URL' | 'CONTENT_URL' | 'INSIGHTS_URL' | 'GRPC_TIMEOUT_MS' | 'LOG_LEVEL'>,
  identity: ServiceIdentity,
) {
  const { clients, channels } = connectUpstreams(
    identity,
    {
      orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: config.ORGS_URL, audience: 'orgs' },
      sites: { client: SitesServiceClient, definition: SitesServiceService, address: config.SITES_URL, audience: 'sites' },
      // Spaces (their active revision id); `spaceContent` their revisions, pages and files.
      content: { client: ContentServiceClient, definition: ContentServiceService, address: config.CONTENT_URL, audience: 'content' },
      spaceContent: { client: SpaceContentServiceClient, definition: SpaceContentServiceService, address: config.CONTENT_URL, audience: 'content' },
      insights: { client: InsightsServiceClient, definition: InsightsServiceService, address: config.INSIGHTS_URL, audience: 'insights' },
    },
    // Failed calls are logged at the reader's level.
    { timeoutMs: config.GRPC_TIMEOUT_MS, log: createLogger('reader', config.LOG_LEVEL) },
  );
  return { ...clients, channels };
}

export type Services = ReturnType<typeof connectServices>;
