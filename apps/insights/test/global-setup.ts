import { fileURLToPath } from 'node:url';
import { migrateTemplate } from '@quire/service-kit/testing';

// The contract tests run the real orgs service beside this one (memberships); insights itself
// keeps no PostgreSQL database.
export default async function setup() {
  return migrateTemplate('orgs', fileURLToPath(new URL('../../orgs', import.meta.url)));
}
