import { loadServiceIdentity, runProcess, startMetricsServer, startTracing } from '@quire/service-kit';
import { buildReader } from './server/app.ts';
import { connectServices } from './clients.ts';
import { listenPort, loadReaderConfig } from './config.ts';

await runProcess('reader', async () => {
  // Before the clients open, so that a page's calls to sites and content carry its trace.
  const stopTracing = await startTracing('reader');
  const config = loadReaderConfig();
  const services = connectServices(config, loadServiceIdentity('reader', config));
  const reader = await buildReader(config, services);
  await reader.app.listen({ host: config.HOST, port: listenPort(config) });
  const side = await startMetricsServer(config.HOST, config.METRICS_PORT ?? listenPort(config) + 1000);
  reader.app.log.info(`Published sites at ${config.QUIRE_READER_URL}/<organization>/<site>`);
  return {
    log: reader.app.log,
    async close() {
      await side.close();
      await reader.app.close();
      await reader.insights.flush();
      for (const c of services.channels) c.client.close();
      await stopTracing?.();
    },
  };
});
