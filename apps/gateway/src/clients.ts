import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { IntegrationsServiceClient, IntegrationsServiceService } from '@quire/proto/integrations';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { SERVICE_NAMES } from '@quire/proto';
import { createClient, promiseClient, type PromiseClient } from '@quire/service-kit';
import type { Client } from '@grpc/grpc-js';
import type { GatewayConfig } from './config.ts';

/** One long-lived channel per service the gateway calls, created at start. */
export interface Services {
  orgs: PromiseClient<OrgsServiceClient>;
  content: PromiseClient<ContentServiceClient>;
  integrations: PromiseClient<IntegrationsServiceClient>;
  /** Every channel with its service name, for readiness and shutdown. */
  channels: { name: string; client: Client }[];
}

export function connectServices(config: Pick<GatewayConfig, 'ORGS_URL' | 'CONTENT_URL' | 'INTEGRATIONS_URL' | 'GRPC_TIMEOUT_MS'>): Services {
  const orgs = createClient(OrgsServiceClient, config.ORGS_URL);
  const content = createClient(ContentServiceClient, config.CONTENT_URL);
  const integrations = createClient(IntegrationsServiceClient, config.INTEGRATIONS_URL);
  return {
    orgs: promiseClient(orgs, OrgsServiceService, config.GRPC_TIMEOUT_MS),
    content: promiseClient(content, ContentServiceService, config.GRPC_TIMEOUT_MS),
    integrations: promiseClient(integrations, IntegrationsServiceService, config.GRPC_TIMEOUT_MS),
    channels: [
      { name: SERVICE_NAMES.orgs, client: orgs },
      { name: SERVICE_NAMES.content, client: content },
      { name: SERVICE_NAMES.integrations, client: integrations },
    ],
  };
}
