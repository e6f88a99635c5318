import { fileURLToPath } from 'node:url';
import { migrateTemplate } from '@quire/service-kit/testing';

// The contract tests run the real orgs service beside this one: both templates are migrated.
export default async function setup() {
  const [dropOrgs, dropContent] = await Promise.all([
    migrateTemplate('orgs', fileURLToPath(new URL('../../orgs', import.meta.url))),
    migrateTemplate('content', fileURLToPath(new URL('..', import.meta.url))),
  ]);
  return async () => {
    await Promise.all([dropOrgs(), dropContent()]);
  };
}
