import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AckPolicy, RetentionPolicy, type NatsConnection } from 'nats';
import { connectNats, ensurePullConsumer, ensureStream, trimAcknowledged } from './nats.js';
import { createLogger } from './logger.js';

// Against the real NATS server with JetStream (NATS_URL, default the local one).
let nc: NatsConnection;
const name = `TEST_${randomBytes(4).toString('hex').toUpperCase()}`;
const subject = `test.${name.toLowerCase()}`;
const queue = `${name}_QUEUE`;
const queueSubject = `test.${queue.toLowerCase()}`;

beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'service-kit-test', createLogger('test', 'silent'));
});
afterAll(async () => {
  const jsm = await nc.jetstreamManager();
  for (const stream of [name, queue]) await jsm.streams.delete(stream).catch(() => undefined);
  await nc.close();
});

describe('JetStream helpers', () => {
  it('creates a stream once, updates it in place, and feeds a durable pull consumer', async () => {
    await ensureStream(nc, { name, subjects: [`${subject}.>`], retention: RetentionPolicy.Workqueue, duplicate_window: 60_000_000_000 });
    await ensureStream(nc, { name, subjects: [`${subject}.>`], retention: RetentionPolicy.Workqueue, max_msgs: 1000 });
    const jsm = await nc.jetstreamManager();
    expect((await jsm.streams.info(name)).config.max_msgs).toBe(1000);

    await ensurePullConsumer(nc, name, { durable_name: 'worker', max_deliver: 3 });
    await ensurePullConsumer(nc, name, { durable_name: 'worker', max_deliver: 5 });
    const info = await jsm.consumers.info(name, 'worker');
    expect(info.config).toMatchObject({ ack_policy: AckPolicy.Explicit, max_deliver: 5 });

    const js = nc.jetstream();
    const first = await js.publish(`${subject}.job`, 'payload', { msgID: 'job-1' });
    const again = await js.publish(`${subject}.job`, 'payload', { msgID: 'job-1' });
    expect(again.duplicate).toBe(true);
    expect(again.seq).toBe(first.seq);

    const consumer = await js.consumers.get(name, 'worker');
    const msg = await consumer.next({ expires: 2000 });
    expect(msg?.string()).toBe('payload');
    msg!.ack();
  });

  it('trims what its consumer acknowledged from a limits stream, and nothing waiting for redelivery or in flight', async () => {
    const jsm = await nc.jetstreamManager();
    const js = nc.jetstream();
    await ensureStream(nc, { name: queue, subjects: [`${queueSubject}.>`], retention: RetentionPolicy.Limits });
    await ensurePullConsumer(nc, queue, { durable_name: 'writer', filter_subject: `${queueSubject}.work` });
    expect(await trimAcknowledged(nc, queue, 'writer')).toBe(0);
    for (let i = 1; i <= 5; i++) await js.publish(`${queueSubject}.work`, `m${i}`);
    const consumer = await js.consumers.get(queue, 'writer');
    const fetch = async (n: number) => {
      const got = [];
      for await (const m of await consumer.fetch({ max_messages: n, expires: 2000 })) got.push(m);
      return got;
    };
    const [m1, m2, m3, m4, m5] = await fetch(5);
    expect([m1, m2, m3, m4, m5].map((m) => m?.string())).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    // m3 failed and waits for redelivery, m4 is still being written: m5, acked, stays until they are.
    m3!.nak(200);
    await Promise.all([m1, m2, m5].map((m) => m!.ackAck()));
    expect(await trimAcknowledged(nc, queue, 'writer')).toBe(2);
    expect((await jsm.streams.info(queue)).state.messages).toBe(3);

    await m4!.ackAck();
    const [again] = await fetch(1);
    expect(again?.string()).toBe('m3');
    await again!.ackAck();
    expect(await trimAcknowledged(nc, queue, 'writer')).toBe(3);
    expect((await jsm.streams.info(queue)).state.messages).toBe(0);
  });
});
