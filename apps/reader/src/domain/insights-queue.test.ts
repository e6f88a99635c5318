import { describe, expect, it } from 'vitest';
import { insightsQueue, type Sender } from './insights-queue.ts';

const ev = (siteId: string, n: number) => ({ organizationId: 'o', siteId, clientIp: '1.2.3.4', event: { n } });

describe('insightsQueue', () => {
  it('sends events in batches per site and drops, never waits, beyond its bound', async () => {
    const sent: { siteId: string; events: unknown[] }[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const send: Sender = async (b) => {
      await gate;
      sent.push({ siteId: b.siteId, events: b.events });
    };
    const q = insightsQueue(send, { limit: 3, intervalMs: 60_000 });
    expect([q.push(ev('a', 1)), q.push(ev('b', 2)), q.push(ev('a', 3)), q.push(ev('a', 4))]).toEqual([true, true, true, false]);
    expect(q.dropped).toBe(1);
    const flushed = q.flush();
    release();
    await flushed;
    q.stop();
    expect(sent).toEqual([
      { siteId: 'a', events: [{ n: 1 }, { n: 3 }] },
      { siteId: 'b', events: [{ n: 2 }] },
    ]);
    expect(q.size).toBe(0);
  });

  it('keeps going when insights fails', async () => {
    const errors: unknown[] = [];
    const q = insightsQueue(async () => Promise.reject(new Error('down')), { limit: 10, intervalMs: 60_000, onError: (e) => errors.push(e) });
    q.push(ev('a', 1));
    await q.flush();
    q.stop();
    expect(errors).toHaveLength(1);
    expect(q.push(ev('a', 2))).toBe(true);
  });
});
