import { fileURLToPath } from 'node:url';
import { migrateTemplate } from '@quire/service-kit/testing';

export default async function setup() {
  const [dropOrgs, dropContent, dropIntegrations, dropReview, dropSites, dropGitSync] = await Promise.all([
    migrateTemplate('orgs', fileURLToPath(new URL('../../orgs', import.meta.url))),
    migrateTemplate('content', fileURLToPath(new URL('../../content', import.meta.url))),
    migrateTemplate('integrations', fileURLToPath(new URL('../../integrations', import.meta.url))),
    migrateTemplate('review', fileURLToPath(new URL('../../review', import.meta.url))),
    migrateTemplate('sites', fileURLToPath(new URL('../../sites', import.meta.url))),
    migrateTemplate('git-sync', fileURLToPath(new URL('../../git-sync', import.meta.url))),
  ]);
  return async () => {
    await Promise.all([dropOrgs(), dropContent(), dropIntegrations(), dropReview(), dropSites(), dropGitSync()]);
  };
}
