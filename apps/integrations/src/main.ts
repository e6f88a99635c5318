import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { createClient, createLogger, loadServiceIdentity, promiseClient, runGrpcService } from '@quire/service-kit';
import { loadSecretsKeys } from '@quire/service-kit/sealed';
import { loadIntegrationsConfig } from './config.ts';
import { integrationsService } from './server.ts';
import { openStore } from './store/index.ts';

await runGrpcService('integrations', async () => {
  const config = loadIntegrationsConfig();
  const log = createLogger('integrations', config.LOG_LEVEL);
  const identity = loadServiceIdentity('integrations', config);
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const secretsKey = loadSecretsKeys(config, (msg) => log.warn(msg), 'secrets published now are sealed with a per-process key and unreadable after a restart');
  const orgsClient = createClient(OrgsServiceClient, config.ORGS_URL);
  return {
    log,
    host: config.GRPC_HOST,
    port: config.INTEGRATIONS_PORT,
    metricsPort: config.METRICS_PORT,
    identity,
    checks,
    services: [integrationsService({ store, orgs: promiseClient(orgsClient, OrgsServiceService, { identity, audience: 'orgs' }), secretsKey }, log)],
    close: [() => orgsClient.close(), close],
  };
});
