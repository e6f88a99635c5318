import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { cachedMemberships, createClient, createLogger, loadServiceIdentity, promiseClient, runGrpcService } from '@quire/service-kit';
import { connectNats, eventSink } from '@quire/service-kit/nats';
import { loadSecretsKeys } from '@quire/service-kit/sealed';
import { loadSitesConfig } from './config.ts';
import { sitesService } from './server.ts';
import { openStore } from './store/index.ts';

await runGrpcService('sites', async () => {
  const config = loadSitesConfig();
  const log = createLogger('sites', config.LOG_LEVEL);
  const identity = loadServiceIdentity('sites', config);
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  const orgsClient = createClient(OrgsServiceClient, config.ORGS_URL);
  const contentClient = createClient(ContentServiceClient, config.CONTENT_URL);
  const nc = await connectNats(config.NATS_URL, 'sites', log);
  const deps = {
    store,
    orgs: cachedMemberships(promiseClient(orgsClient, OrgsServiceService, { identity, audience: 'orgs' }), config.MEMBERSHIP_CACHE_MS),
    content: promiseClient(contentClient, ContentServiceService, { identity, audience: 'content' }),
    identity,
    secretsKey: loadSecretsKeys(config, (m) => log.warn(m), 'visitor keys of sites sealed now will not open after a restart'),
    events: eventSink(nc, 'sites', config.EVENTS_SUBJECT_PREFIX, log),
  };
  return {
    log,
    host: config.GRPC_HOST,
    port: config.SITES_PORT,
    identity,
    metricsPort: config.METRICS_PORT,
    checks,
    services: [sitesService(deps, log)],
    close: [() => orgsClient.close(), () => contentClient.close(), () => nc.drain(), close],
  };
});
