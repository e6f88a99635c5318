import { runProcess } from '@quire/service-kit';
import { buildApp } from './app.ts';
import { connectServices } from './clients.ts';
import { loadGatewayConfig } from './config.ts';

await runProcess('gateway', async () => {
  const config = loadGatewayConfig();
  const services = connectServices(config);
  const app = await buildApp(config, services);
  await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(`Quire API at ${config.QUIRE_PUBLIC_URL}/v1, reference at ${config.QUIRE_PUBLIC_URL}/docs`);
  return {
    log: app.log,
    async close() {
      await app.close();
      for (const c of services.channels) c.client.close();
    },
  };
});
