import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateTemplate } from '@quire/service-kit/testing';
import { uncovered } from './gitbook-spec.ts';

export default async function setup() {
  // The workers inherit it: each appends the operations it served and validated (harness.ts).
  const coverageDir = mkdtempSync(join(tmpdir(), 'quire-spec-'));
  const coverage = (process.env.QUIRE_SPEC_COVERAGE = join(coverageDir, 'operations'));
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
    const text = readFileSync(coverage, { encoding: 'utf8', flag: 'a+' });
    rmSync(coverageDir, { recursive: true, force: true });
    // Only a whole run speaks for every operation (the package's test script): a run of some files names some.
    if (process.env.QUIRE_SPEC_COVERAGE_GATE !== 'on') return;
    const missing = uncovered(text);
    if (missing.length) throw new Error(`operations the gateway serves that no test answered successfully (checked against GitBook's OpenAPI document): ${missing.join(', ')}`);
  };
}
