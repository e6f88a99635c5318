import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, hoursAgo, track } from './fixtures.ts';
import { startInsights, type InsightsHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: InsightsHarness;
let owner: TestUser;
let orgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startInsights(orgs.address, { INSIGHTS_RETENTION_DAYS: '30' });
  owner = await orgs.user('owner');
  orgId = (await orgs.organization(owner, [], 'Retention')).id;
});
afterAll(async () => {
  await h?.stop();
  await orgs?.stop();
});

describe('retention (INSIGHTS_RETENTION_DAYS)', () => {
  it('is the table TTL: events older than it are not kept', async () => {
    const [table] = await h.store.transport.query<{ statement: string }>('SHOW CREATE TABLE events', {});
    expect(table!.statement).toMatch(/TTL toDateTime\(timestamp\) \+ toIntervalDay\(30\)/);

    const now = new Date();
    await track(h, owner.id, orgId, 'site-ttl', [event({ timestamp: hoursAgo(now, 24 * 31) }), event({ timestamp: hoursAgo(now, 24 * 29) }), event()]);
    expect(await h.stored(orgId, 'site-ttl', 2)).toBeGreaterThanOrEqual(2);
    // TTL applies at merges (sometimes already at the write); a final merge applies it now.
    await h.store.transport.exec('OPTIMIZE TABLE events FINAL');
    expect(await h.store.count(orgId, 'site-ttl')).toBe(2);

    // A shorter retention applies to stored events too (as a restart with a new value does).
    await h.store.transport.exec('ALTER TABLE events MODIFY TTL toDateTime(timestamp) + INTERVAL 28 DAY');
    await h.store.transport.exec('OPTIMIZE TABLE events FINAL');
    expect(await h.store.count(orgId, 'site-ttl')).toBe(1);
  });
});
