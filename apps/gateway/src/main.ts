import { existsSync, readFileSync } from 'node:fs';
import { loadServiceIdentity, runProcess, startMetricsServer, startTracing } from '@quire/service-kit';
import { buildApp } from './app.ts';
import { connectServices } from './clients.ts';
import { loadGatewayConfig } from './config.ts';

await runProcess('gateway', async () => {
  const stopTracing = await startTracing('gateway');
  const config = loadGatewayConfig();
  const services = connectServices(config, loadServiceIdentity('gateway', config));
  const app = await buildApp(config, services);
  await app.listen({ host: config.HOST, port: config.PORT });
  const side = await startMetricsServer(config.HOST, config.METRICS_PORT ?? config.PORT + 1000);
  if (config.QUIRE_WEB_DIST) app.log.info(`Web app at ${config.QUIRE_APP_URL ?? config.QUIRE_PUBLIC_URL}/`);
  app.log.info(`Quire API at ${config.QUIRE_PUBLIC_URL}/v1, reference at ${config.QUIRE_PUBLIC_URL}/docs`);
  // `pnpm dev` only: the token the store preparation created, so the stack is usable at once.
  const tokenFile = process.env.QUIRE_DEV_TOKEN_FILE;
  if (tokenFile && existsSync(tokenFile)) app.log.info(`Token: ${readFileSync(tokenFile, 'utf8').trim()}`);
  return {
    log: app.log,
    async close() {
      await side.close();
      await app.close();
      for (const c of services.channels) c.client.close();
      await stopTracing?.();
    },
  };
});
