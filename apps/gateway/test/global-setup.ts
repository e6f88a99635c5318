import { fileURLToPath } from 'node:url';
import { migrateTemplate } from '@quire/service-kit/testing';

export default async function setup() {
  return migrateTemplate('orgs', fileURLToPath(new URL('../../orgs', import.meta.url)));
}
