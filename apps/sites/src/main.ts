import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { cachedMemberships, createClient, createLogger, promiseClient, runGrpcService } from '@quire/service-kit';
import { loadSitesConfig } from './config.ts';
import { sitesService } from './server.ts';
import { openStore } from './store/index.ts';

await runGrpcService('sites', async () => {
  const config = loadSitesConfig();
  const log = createLogger('sites', config.LOG_LEVEL);
  const { store, close } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const orgsClient = createClient(OrgsServiceClient, config.ORGS_URL);
  const contentClient = createClient(ContentServiceClient, config.CONTENT_URL);
  const deps = { store, orgs: cachedMemberships(promiseClient(orgsClient, OrgsServiceService), config.MEMBERSHIP_CACHE_MS), content: promiseClient(contentClient, ContentServiceService) };
  return {
    log,
    host: config.GRPC_HOST,
    port: config.SITES_PORT,
    services: [sitesService(deps, log)],
    close: [() => orgsClient.close(), () => contentClient.close(), close],
  };
});
