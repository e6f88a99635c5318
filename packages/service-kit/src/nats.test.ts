import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AckPolicy, RetentionPolicy, type NatsConnection } from 'nats';
import { connectNats, ensurePullConsumer, ensureStream } from './nats.js';
import { createLogger } from './logger.js';

// Against the real NATS server with JetStream (NATS_URL, default the local one).
let nc: NatsConnection;
const name = `TEST_${randomBytes(4).toString('hex').toUpperCase()}`;
const subject = `test.${name.toLowerCase()}`;

beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'service-kit-test', createLogger('test', 'silent'));
});
afterAll(async () => {
  await (await nc.jetstreamManager()).streams.delete(name).catch(() => undefined);
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
});
