import { describe, expect, it } from 'vitest';
import { event, hoursAgo, track } from './fixtures.ts';
import { insightsWithOwner } from './suite.ts';

const s = insightsWithOwner('Retention', { INSIGHTS_RETENTION_DAYS: '30' });

describe('retention (INSIGHTS_RETENTION_DAYS)', () => {
  it('is the table TTL: events older than it are not kept', async () => {
    const [table] = await s.h.store.transport.query<{ statement: string }>('SHOW CREATE TABLE events', {});
    expect(table!.statement).toMatch(/TTL toDateTime\(timestamp\) \+ toIntervalDay\(30\)/);

    const now = new Date();
    await track(s.h, s.owner.id, s.orgId, 'site-ttl', [event({ timestamp: hoursAgo(now, 24 * 31) }), event({ timestamp: hoursAgo(now, 24 * 29) }), event()]);
    expect(await s.h.stored(s.orgId, 'site-ttl', 2)).toBeGreaterThanOrEqual(2);
    // TTL applies at merges (sometimes already at the write); a final merge applies it now.
    await s.h.store.transport.exec('OPTIMIZE TABLE events FINAL');
    expect(await s.h.store.count(s.orgId, 'site-ttl')).toBe(2);

    // A shorter retention applies to stored events too (as a restart with a new value does).
    await s.h.store.transport.exec('ALTER TABLE events MODIFY TTL toDateTime(timestamp) + INTERVAL 28 DAY');
    await s.h.store.transport.exec('OPTIMIZE TABLE events FINAL');
    expect(await s.h.store.count(s.orgId, 'site-ttl')).toBe(1);
  });
});
