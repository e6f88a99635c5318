import { describe, expect, it } from 'vitest';
import { FLUSH_MS } from '../src/ingest/writer.ts';
import { event, track } from './fixtures.ts';
import { insightsWithOwner } from './suite.ts';

const s = insightsWithOwner('Trickle');

describe('a steady trickle of events, closer together than the flush interval', () => {
  it('is stored while it goes on, a batch at most FLUSH_MS after its first message, not once the batch is full', async () => {
    const site = 'site-trickle';
    // One event every FLUSH_MS / 4 for 3 s: fewer messages than a batch (100) and never a pause of
    // FLUSH_MS. A writer that waits for a pause or a full batch stores nothing until the end.
    const until = Date.now() + 3000;
    let sent = 0;
    let storedWhileSending = 0;
    const trickle = (async () => {
      while (Date.now() < until) {
        await track(s.h, s.owner.id, s.orgId, site, [event({ visitorId: `trickle-${sent}` })]);
        sent++;
        await new Promise((r) => setTimeout(r, FLUSH_MS / 4));
      }
    })();
    while (Date.now() < until - 500) {
      storedWhileSending = await s.h.store.count(s.orgId, site);
      if (storedWhileSending > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await trickle;
    expect(sent).toBeLessThan(s.h.config.INSIGHTS_BATCH_MESSAGES);
    expect(storedWhileSending).toBeGreaterThan(0);
    expect(await s.h.stored(s.orgId, site, sent)).toBe(sent);
  }, 30_000);
});

describe('the stream', () => {
  it('keeps only the events ClickHouse does not have yet', async () => {
    const site = 'site-trimmed';
    const jsm = await s.h.runtime.nc.jetstreamManager();
    for (let i = 0; i < 3; i++) await track(s.h, s.owner.id, s.orgId, site, [event({ visitorId: `trim-${i}` }), event({ visitorId: `trim-${i}b` })]);
    expect((await jsm.streams.info(s.h.config.INSIGHTS_STREAM)).state.messages).toBeGreaterThan(0);
    expect(await s.h.stored(s.orgId, site, 6)).toBe(6);
    // The writer acks right after its insert: the floor may arrive a moment after the rows.
    for (let i = 0; i < 40 && (await jsm.streams.info(s.h.config.INSIGHTS_STREAM)).state.messages > 0; i++) {
      await s.h.runtime.trimStream();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await jsm.streams.info(s.h.config.INSIGHTS_STREAM)).state.messages).toBe(0);
    expect(await s.h.store.count(s.orgId, site)).toBe(6);
  }, 30_000);
});
