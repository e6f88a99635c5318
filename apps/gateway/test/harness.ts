import { startIntegrations } from '@quire/integrations/testing';
import { startOrgs } from '@quire/orgs/testing';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';

/** The whole gateway over the real orgs and integrations services and fresh databases; drive it with `app.inject`. */
export async function startGateway(env: Record<string, string> = {}) {
  const orgs = await startOrgs();
  const integrations = await startIntegrations(orgs.address);
  const config = loadGatewayConfig({ ORGS_URL: orgs.address, INTEGRATIONS_URL: integrations.address, LOG_LEVEL: 'silent', ...env });
  const services = connectServices(config);
  const app = await buildApp(config, services);
  await app.ready();
  return {
    app,
    orgs,
    integrations,
    config,
    services,
    async stop() {
      await app.close();
      for (const c of services.channels) c.client.close();
      await integrations.stop();
      await orgs.stop();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
