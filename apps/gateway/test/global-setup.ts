import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareTemplates } from '@quire/service-kit/testing';
import { uncovered } from './gitbook-spec.ts';

export default async function setup() {
  // The workers inherit it: each appends the operations it served and validated (setup.ts).
  const coverageDir = mkdtempSync(join(tmpdir(), 'quire-spec-'));
  const coverage = (process.env.QUIRE_SPEC_COVERAGE = join(coverageDir, 'operations'));
  const sweep = await prepareTemplates('orgs', 'content', 'integrations', 'review', 'sites', 'git-sync');
  return async () => {
    await sweep();
    const text = readFileSync(coverage, { encoding: 'utf8', flag: 'a+' });
    rmSync(coverageDir, { recursive: true, force: true });
    // Only a whole run speaks for every operation (the package's test script): a run of some files names some.
    if (process.env.QUIRE_SPEC_COVERAGE_GATE !== 'on') return;
    const missing = uncovered(text);
    if (missing.length) throw new Error(`operations the gateway serves that no test answered successfully (checked against GitBook's OpenAPI document): ${missing.join(', ')}`);
  };
}
