import { createLogger, loadServiceIdentity, runProcess, startMetricsServer, startTracing } from '@quire/service-kit';
import { connectNats } from '@quire/service-kit/nats';
import { watchAccess } from './access.ts';
import { loadCollabConfig } from './config.ts';
import { connectPages } from './pages.ts';
import { collabServer } from './server.ts';

await runProcess('collab', async () => {
  const stopTracing = await startTracing('collab');
  const config = loadCollabConfig();
  const log = createLogger('collab', config.LOG_LEVEL);
  const pages = connectPages(config, loadServiceIdentity('collab', config), log);
  const nc = await connectNats(config.NATS_URL, 'collab', log);
  const server = collabServer(config, pages, log);
  const access = watchAccess(nc, config.EVENTS_SUBJECT_PREFIX, server.hocuspocus, pages, log);
  await server.listen();
  // Ready once it listens: every page's services are asked as members connect.
  const side = await startMetricsServer(config.HOST, config.METRICS_PORT ?? config.COLLAB_PORT + 1000, () => true);
  log.info(`Collaboration on ws://${config.HOST}:${server.address.port}`);
  return {
    log,
    async close() {
      await side.close();
      // Stores every loaded page before closing.
      await server.destroy();
      access.close();
      await nc.drain();
      pages.close();
      await stopTracing?.();
    },
  };
});
