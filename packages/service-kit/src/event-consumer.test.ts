import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetentionPolicy, type NatsConnection } from 'nats';
import { readDomainEvents, startEventConsumer, type EventConsumerConfig, type EventWork } from './event-consumer.js';
import { createLogger } from './logger.js';
import { connectNats, ensureStream } from './nats.js';
import { testSuffix } from './testing/index.js';

// Against the real NATS server with JetStream (NATS_URL, default the local one).
let nc: NatsConnection;
const suffix = testSuffix();
const stream = `TEST_EVENTS_${suffix}`;
const prefix = `test.events.${suffix}`;
const log = createLogger('test', 'silent');

beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'event-consumer-test', log);
  await ensureStream(nc, { name: stream, subjects: [`${prefix}.>`], retention: RetentionPolicy.Limits });
});
afterAll(async () => {
  await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
  await nc.close();
});

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
  for (const end = Date.now() + ms; !(await check());) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A consumer of its own subject on the test stream, and what its `read` gets. */
function consumerOn(name: string, read: EventConsumerConfig['read'], dropBy?: 'ack' | 'term') {
  const durable = `${name}-${suffix}`;
  const subject = `${prefix}.${name}`;
  const start = () => startEventConsumer(nc, stream, { durable, filterSubject: subject, read, malformed: 'unreadable', dropBy, failed: 'not done' }, log);
  const publish = (data: string) => nc.jetstream().publish(subject, data);
  const info = async () => (await nc.jetstreamManager()).consumers.info(stream, durable);
  return { start, publish, info };
}

describe('startEventConsumer', () => {
  it('acks a message once its work is done, skipped and malformed ones at once', async () => {
    const done: string[] = [];
    const c = consumerOn('ack', (data) => (data === 'skip' ? 'skip' : data === 'bad' ? null : { id: data, run: async () => void done.push(data) }));
    const stop = await c.start();
    for (const d of ['a', 'skip', 'bad', 'b']) await c.publish(d);
    await until(async () => (await c.info()).ack_floor.stream_seq > 0 && (await c.info()).num_ack_pending === 0 && done.length === 2);
    await stop();
    expect(done).toEqual(['a', 'b']);
    expect(await c.info()).toMatchObject({ num_pending: 0, num_ack_pending: 0, num_redelivered: 0 });
  });

  it('terminates a malformed message when asked: the server is told, and it is not delivered again', async () => {
    const reads: string[] = [];
    const c = consumerOn('term', (data) => (reads.push(data), null), 'term');
    const terminated = nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED.${stream}.term-${suffix}`, { max: 1 });
    const stop = await c.start();
    await c.publish('bad');
    for await (const advisory of terminated) expect(JSON.parse(advisory.string())).toMatchObject({ stream_seq: expect.any(Number) });
    await until(async () => (await c.info()).num_ack_pending === 0);
    await stop();
    expect(reads).toEqual(['bad']);
  });

  it('redelivers a message whose work failed, after a backoff, until it succeeds', async () => {
    const tries: number[] = [];
    const c = consumerOn('retry', (data) => ({
      id: data,
      run: async () => {
        tries.push(Date.now());
        if (tries.length < 3) throw new Error('store away');
      },
    }));
    const stop = await c.start();
    await c.publish('x');
    await until(() => tries.length === 3);
    await until(async () => (await c.info()).num_ack_pending === 0);
    await stop();
    const [t1, t2, t3] = tries as [number, number, number];
    // Half a second, then a second: the nak's delay doubles with each redelivery.
    expect(t2 - t1).toBeGreaterThanOrEqual(400);
    expect(t3 - t2).toBeGreaterThanOrEqual(900);
    expect((await c.info()).num_pending).toBe(0);
  });

  it('stop handles the messages already received, acks them, and takes no more', async () => {
    const done: string[] = [];
    let started!: () => void;
    const first = new Promise<void>((r) => (started = r));
    const c = consumerOn('drain', (data) => ({
      id: data,
      run: async () => {
        started();
        await new Promise((r) => setTimeout(r, 100));
        done.push(data);
      },
    }));
    const stop = await c.start();
    for (let i = 0; i < 5; i++) await c.publish(`m${i}`);
    await first;
    await stop();
    const handled = done.length;
    const info = await c.info();
    // Nothing taken is left unacked, and what was not taken waits on the stream.
    expect(info.num_ack_pending).toBe(0);
    expect(handled + info.num_pending).toBe(5);
    await new Promise((r) => setTimeout(r, 300));
    expect(done.length).toBe(handled);
  });
});

describe('readDomainEvents', () => {
  const event = { id: 'e1', occurredAt: '2026-11-29T00:00:00Z', service: 'content', entity: 'space', verb: 'updated', target: { type: 'space', id: 's1' } };
  const spaceOf = (e: { entity: string; target?: { id: string } }) => (e.entity === 'space' && e.target ? e.target.id : null);

  it("runs what the parse makes of an event, under the event's id", async () => {
    const seen: string[] = [];
    const work = readDomainEvents(spaceOf, async (space, e) => seen.push(`${space} ${e.verb}`))(JSON.stringify(event));
    expect(work).toMatchObject({ id: 'e1' });
    await (work as EventWork).run();
    expect(seen).toEqual(['s1 updated']);
  });

  it('drops what is no event or what the parse makes nothing of as malformed, unless skipped as not its own', () => {
    const read = readDomainEvents(
      spaceOf,
      async () => undefined,
      (e) => e.entity === 'member',
    );
    expect(read('{not json')).toBeNull();
    expect(read(JSON.stringify({ ...event, entity: 'site' }))).toBeNull();
    expect(read(JSON.stringify({ ...event, entity: 'member' }))).toBe('skip');
  });
});
