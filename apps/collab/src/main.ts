import { createLogger, loadServiceKeys, runProcess, startMetricsServer, startTracing } from '@quire/service-kit';
import { buildCollab } from './app.ts';
import { loadCollabConfig } from './config.ts';

await runProcess('collab', async () => {
  const stopTracing = await startTracing('collab');
  const config = loadCollabConfig();
  const log = createLogger('collab', config.LOG_LEVEL);
  const collab = await buildCollab(config, loadServiceKeys('collab', config), log);
  await collab.server.listen();
  // Ready once it listens: every page's services are asked as members connect.
  const side = await startMetricsServer(config.HOST, config.METRICS_PORT ?? config.COLLAB_PORT + 1000, () => true);
  log.info(`Collaboration on ws://${config.HOST}:${collab.server.address.port}`);
  return {
    log,
    async close() {
      await side.close();
      await collab.close();
      await stopTracing?.();
    },
  };
});
