import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll } from 'vitest';
import { startInsights, type InsightsHarness } from './harness.ts';

// Apart from the harness, which the benchmarks import outside vitest (`@quire/insights/testing`).

/**
 * The suite's insights over its own orgs, with an owner and an organization of theirs: started
 * before the suite's tests and stopped after them. Read the fields inside tests.
 */
export function insightsWithOwner(title: string, env: Record<string, string> = {}) {
  const suite = {} as { orgs: OrgsHarness; h: InsightsHarness; owner: TestUser; orgId: string };
  beforeAll(async () => {
    suite.orgs = await startOrgs();
    suite.h = await startInsights(suite.orgs.address, env);
    suite.owner = await suite.orgs.user('owner');
    suite.orgId = (await suite.orgs.organization(suite.owner, [], title)).id;
  });
  afterAll(async () => {
    await suite.h?.stop();
    await suite.orgs?.stop();
  });
  return suite;
}
