import { fileURLToPath } from 'node:url';
import { migrateTemplate } from '@quire/service-kit/testing';

export default async function setup() {
  const [dropOrgs, dropContent, dropIntegrations] = await Promise.all([
    migrateTemplate('orgs', fileURLToPath(new URL('../../orgs', import.meta.url))),
    migrateTemplate('content', fileURLToPath(new URL('../../content', import.meta.url))),
    migrateTemplate('integrations', fileURLToPath(new URL('../../integrations', import.meta.url))),
  ]);
  return async () => {
    await Promise.all([dropOrgs(), dropContent(), dropIntegrations()]);
  };
}
