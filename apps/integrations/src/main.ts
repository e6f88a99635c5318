import { randomBytes } from 'node:crypto';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { createClient, createLogger, promiseClient, runGrpcService } from '@quire/service-kit';
import { loadIntegrationsConfig } from './config.ts';
import { integrationsService } from './server.ts';
import { openStore } from './store/index.ts';

await runGrpcService('integrations', async () => {
  const config = loadIntegrationsConfig();
  const log = createLogger('integrations', config.LOG_LEVEL);
  const { store, close } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  if (!config.QUIRE_SECRETS_KEY) log.warn('QUIRE_SECRETS_KEY is not set: secrets published now are sealed with a per-process key and unreadable after a restart');
  const secretsKey = config.QUIRE_SECRETS_KEY ? Buffer.from(config.QUIRE_SECRETS_KEY, 'base64') : randomBytes(32);
  const orgsClient = createClient(OrgsServiceClient, config.ORGS_URL);
  return {
    log,
    host: config.GRPC_HOST,
    port: config.INTEGRATIONS_PORT,
    services: [integrationsService({ store, orgs: promiseClient(orgsClient, OrgsServiceService), secretsKey }, log)],
    close: [() => orgsClient.close(), close],
  };
});
