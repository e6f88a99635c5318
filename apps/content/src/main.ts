import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { createClient, createLogger, promiseClient, runProcess, startGrpcServer } from '@quire/service-kit';
import { loadContentConfig } from './config.ts';
import { contentService } from './server.ts';
import { openStore } from './store/index.ts';

await runProcess('content', async () => {
  const config = loadContentConfig();
  const log = createLogger('content', config.LOG_LEVEL);
  const { store, close: closeStore } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, (err) =>
    log.warn({ err }, 'database connection closed by the server'),
  );
  const orgsClient = createClient(OrgsServiceClient, config.ORGS_URL);
  const grpc = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.CONTENT_PORT,
    services: [contentService({ store, orgs: promiseClient(orgsClient, OrgsServiceService) }, log)],
    log,
  });
  return {
    log,
    async close() {
      await grpc.shutdown();
      orgsClient.close();
      await closeStore();
    },
  };
});
