import { fileURLToPath } from 'node:url';
import { migrateTemplate } from '@quire/service-kit/testing';

// The integration tests run the real orgs and content services beside this one.
export default async function setup() {
  const drops = await Promise.all([
    migrateTemplate('orgs', fileURLToPath(new URL('../../orgs', import.meta.url))),
    migrateTemplate('content', fileURLToPath(new URL('../../content', import.meta.url))),
    migrateTemplate('git-sync', fileURLToPath(new URL('..', import.meta.url))),
  ]);
  return async () => {
    await Promise.all(drops.map((drop) => drop()));
  };
}
