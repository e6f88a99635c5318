import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { connectUpstreams, serveGrpcService, type ComposedService, type Logger, type ServiceIdentity } from '@quire/service-kit';
import { loadSecretsKeys } from '@quire/service-kit/sealed';
import { loadIntegrationsConfig, type IntegrationsConfig } from './config.ts';
import { integrationsService } from './server.ts';
import { openStore } from './store/index.ts';

/** The composition root: store, the orgs client, the gRPC service. */
export async function compose(config: IntegrationsConfig, identity: ServiceIdentity, log: Logger): Promise<ComposedService> {
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const secretsKey = loadSecretsKeys(config, (msg) => log.warn(msg), 'secrets published now are sealed with a per-process key and unreadable after a restart');
  const upstreams = connectUpstreams(identity, { orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: config.ORGS_URL, audience: 'orgs' } }, { log });
  return {
    checks,
    services: [integrationsService({ store, orgs: upstreams.clients.orgs, secretsKey }, log)],
    close: [upstreams.close, close],
  };
}

await serveGrpcService(import.meta.url, 'integrations', { load: loadIntegrationsConfig, port: (c) => c.INTEGRATIONS_PORT }, compose);
