import { connect, type JsMsg } from 'nats';
import { describe, expect, it } from 'vitest';
import { dedupeToken, writeMessages } from '../src/ingest/writer.ts';
import { INSERT_COLUMNS } from '../src/store/index.ts';
import { event, track } from './fixtures.ts';
import { insightsWithOwner } from './suite.ts';

// Failures on the way from JetStream to ClickHouse, on the embedded engine. Unacked messages come
// back after one second here (INSIGHTS_ACK_WAIT_MS), so the tests wait seconds, not minutes.
const s = insightsWithOwner('Faults', { INSIGHTS_ACK_WAIT_MS: '1000' });

const batch = (visitor: string, n: number) => Array.from({ length: n }, (_, i) => event({ visitorId: visitor, sessionId: `${visitor}-${i % 3}` }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ClickHouse unavailable while events arrive', () => {
  it('accepts the events, keeps them in the stream, and stores each once when ClickHouse is back', async () => {
    const site = 'site-outage';
    s.h.chdb!.close();
    for (let i = 0; i < 5; i++) await expect(track(s.h, s.owner.id, s.orgId, site, batch(`out${i}`, 20))).resolves.toEqual({ count: 20 });
    // Several failed inserts and redeliveries while it is away.
    await sleep(2500);
    await expect(s.h.store.count(s.orgId, site)).rejects.toThrow(/closed/);
    s.h.chdb!.reopen();
    // Redeliveries back off up to 30 s: under load the last of them may come that late.
    expect(await s.h.stored(s.orgId, site, 100, 45_000)).toBe(100);
    // Nothing more arrives later from the redeliveries of the outage.
    await sleep(2000);
    expect(await s.h.store.count(s.orgId, site)).toBe(100);
  }, 60_000);
});

describe('a message ClickHouse refuses', () => {
  it('is dropped after a few deliveries without holding back the events around it', async () => {
    const site = 'site-poison';
    await track(s.h, s.owner.id, s.orgId, site, batch('before', 5));
    await s.h.runtime.nc.jetstream().publish(`${s.h.config.INSIGHTS_SUBJECT_PREFIX}.events`, Buffer.from('["not", "a row"\n'), { msgID: 'poison-1' });
    await track(s.h, s.owner.id, s.orgId, site, batch('after', 5));
    expect(await s.h.stored(s.orgId, site, 10)).toBe(10);
    // Dropped once refused POISON_DELIVERIES times (backoff 0.5 s, 1 s, 2 s, 4 s): nothing left pending.
    const jsm = await s.h.runtime.nc.jetstreamManager();
    for (let i = 0; i < 40 && (await jsm.consumers.info(s.h.config.INSIGHTS_STREAM, s.h.config.INSIGHTS_CONSUMER)).num_ack_pending > 0; i++) await sleep(500);
    const info = await jsm.consumers.info(s.h.config.INSIGHTS_STREAM, s.h.config.INSIGHTS_CONSUMER);
    expect({ pending: info.num_pending, ackPending: info.num_ack_pending }).toEqual({ pending: 0, ackPending: 0 });
    expect(await s.h.store.count(s.orgId, site)).toBe(10);
  });
});

describe('the consumer dies between its insert and its ack', () => {
  it('counts the redelivered batch once, alone or grouped with new ones', async () => {
    const site = 'site-crash';
    await s.h.runtime.stopWriting();
    for (let i = 0; i < 3; i++) await track(s.h, s.owner.id, s.orgId, site, batch(`crash${i}`, 10));

    // Another process takes the messages and inserts them exactly as the writer does, then dies
    // before acking: its connection closes with the messages unacked.
    const nc = await connect({ servers: s.h.config.NATS_URL });
    const consumer = await nc.jetstream().consumers.get(s.h.config.INSIGHTS_STREAM, s.h.config.INSIGHTS_CONSUMER);
    const taken: JsMsg[] = [];
    for await (const m of await consumer.fetch({ max_messages: 2, expires: 2000 })) taken.push(m);
    expect(taken).toHaveLength(2);
    await s.h.store.insert(Buffer.concat(taken.map((m) => m.data)), dedupeToken(taken.map((m) => m.headers!.get('Nats-Msg-Id'))));
    await nc.close();
    expect(await s.h.store.count(s.orgId, site)).toBe(20);

    // A new batch arrives before the consumer restarts: it is fetched with the redelivered ones.
    await track(s.h, s.owner.id, s.orgId, site, batch('crash3', 10));
    await sleep(1200);
    s.h.runtime.startWriting();
    expect(await s.h.stored(s.orgId, site, 40)).toBe(40);
    await sleep(2000);
    expect(await s.h.store.count(s.orgId, site)).toBe(40);
  });

  it('stores an insert retried with the same token once', async () => {
    const site = 'site-retry';
    await track(s.h, s.owner.id, s.orgId, site, batch('retry', 7));
    expect(await s.h.stored(s.orgId, site, 7)).toBe(7);
    const [row] = await s.h.store.transport.query<{ batch_id: string }>('SELECT any(batch_id) AS batch_id FROM events WHERE site_id = {s:String}', { s: site });
    const rows = await s.h.store.transport.query<Record<string, unknown>>('SELECT * FROM events WHERE site_id = {s:String}', { s: site });
    const body = Buffer.from(rows.map((r) => `${JSON.stringify(INSERT_COLUMNS.map((c) => r[c]))}\n`).join(''));
    // The writer's token for that one message: the retry of its insert.
    await s.h.store.insert(body, dedupeToken([row!.batch_id]));
    expect(await s.h.store.count(s.orgId, site)).toBe(7);
  });
  it('stores a message once when its ack wait runs out while its fetch is open and it comes again in that fetch', async () => {
    const site = 'site-twice';
    await s.h.runtime.stopWriting();
    await track(s.h, s.owner.id, s.orgId, site, batch('twice', 6));
    const nc = await connect({ servers: s.h.config.NATS_URL });
    const consumer = await nc.jetstream().consumers.get(s.h.config.INSIGHTS_STREAM, s.h.config.INSIGHTS_CONSUMER);
    const taken: JsMsg[] = [];
    // The fetch stays open past the ack wait (1 s): the server delivers the message again into it.
    for await (const m of await consumer.fetch({ max_messages: 2, expires: 4000 })) taken.push(m);
    expect(taken.map((m) => m.headers!.get('Nats-Msg-Id'))).toEqual([taken[0]!.headers!.get('Nats-Msg-Id'), taken[0]!.headers!.get('Nats-Msg-Id')]);
    await writeMessages(s.h.store, taken, s.h.log);
    expect(await s.h.store.count(s.orgId, site)).toBe(6);
    await nc.close();
    s.h.runtime.startWriting();
    await sleep(2000);
    expect(await s.h.store.count(s.orgId, site)).toBe(6);
  });
});
