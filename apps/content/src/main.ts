import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { createClient, createLogger, promiseClient, runGrpcService } from '@quire/service-kit';
import { loadContentConfig } from './config.ts';
import { contentService } from './server.ts';
import { openStore } from './store/index.ts';

await runGrpcService('content', async () => {
  const config = loadContentConfig();
  const log = createLogger('content', config.LOG_LEVEL);
  const { store, close } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const orgsClient = createClient(OrgsServiceClient, config.ORGS_URL);
  return {
    log,
    host: config.GRPC_HOST,
    port: config.CONTENT_PORT,
    services: [contentService({ store, orgs: promiseClient(orgsClient, OrgsServiceService) }, log)],
    close: [() => orgsClient.close(), close],
  };
});
