import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { cachedMemberships, connectUpstreams, serveGrpcService, type ComposedService, type Logger, type ServiceIdentity } from '@quire/service-kit';
import { connectNats, eventSink } from '@quire/service-kit/nats';
import { loadSecretsKeys } from '@quire/service-kit/sealed';
import { loadSitesConfig, type SitesConfig } from './config.ts';
import { sitesService } from './server.ts';
import { openStore } from './store/index.ts';

/** The composition root: store, clients of orgs and content, NATS events, the gRPC service. */
export async function compose(config: SitesConfig, identity: ServiceIdentity, log: Logger): Promise<ComposedService> {
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const upstreams = connectUpstreams(
    identity,
    {
      orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: config.ORGS_URL, audience: 'orgs' },
      content: { client: ContentServiceClient, definition: ContentServiceService, address: config.CONTENT_URL, audience: 'content' },
    },
    { log },
  );
  const nc = await connectNats(config.NATS_URL, 'sites', log);
  const deps = {
    store,
    orgs: cachedMemberships(upstreams.clients.orgs, config.MEMBERSHIP_CACHE_MS),
    content: upstreams.clients.content,
    identity,
    secretsKey: loadSecretsKeys(config, (m) => log.warn(m), 'visitor keys of sites sealed now will not open after a restart'),
    events: eventSink(nc, 'sites', config.EVENTS_SUBJECT_PREFIX, log),
  };
  return { checks, services: [sitesService(deps, log)], close: [upstreams.close, () => nc.drain(), close] };
}

await serveGrpcService(import.meta.url, 'sites', { load: loadSitesConfig, port: (c) => c.SITES_PORT }, compose);
