import { startContent } from '@quire/content/testing';
import { startIntegrations } from '@quire/integrations/testing';
import { startOrgs } from '@quire/orgs/testing';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';

/** The whole gateway over the real orgs, content and integrations services and fresh databases; drive it with `app.inject`. */
export async function startGateway(env: Record<string, string> = {}) {
  const orgs = await startOrgs();
  const [content, integrations] = await Promise.all([startContent(orgs.address), startIntegrations(orgs.address)]);
  const config = loadGatewayConfig({ ORGS_URL: orgs.address, CONTENT_URL: content.address, INTEGRATIONS_URL: integrations.address, LOG_LEVEL: 'silent', ...env });
  const services = connectServices(config);
  const app = await buildApp(config, services);
  await app.ready();
  return {
    app,
    orgs,
    content,
    integrations,
    config,
    services,
    async stop() {
      await app.close();
      for (const c of services.channels) c.client.close();
      await Promise.all([content.stop(), integrations.stop()]);
      await orgs.stop();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
