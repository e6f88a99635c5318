import { startOrgs } from '@quire/orgs/testing';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';

/** The whole gateway over the real orgs service and a fresh database; drive it with `app.inject`. */
export async function startGateway(env: Record<string, string> = {}) {
  const orgs = await startOrgs();
  const config = loadGatewayConfig({ ORGS_URL: orgs.address, LOG_LEVEL: 'silent', ...env });
  const services = connectServices(config);
  const app = await buildApp(config, services);
  await app.ready();
  return {
    app,
    orgs,
    config,
    services,
    async stop() {
      await app.close();
      for (const c of services.channels) c.client.close();
      await orgs.stop();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
