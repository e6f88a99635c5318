import { createHash } from 'node:crypto';
import { timeJob, type Logger } from '@quire/service-kit';
import type { Consumer, ConsumerMessages, JsMsg } from 'nats';
import type { Store } from '../store/index.ts';

const MSG_ID = 'Nats-Msg-Id';
const MAX_BACKOFF_MS = 30_000;
/** Deliveries of a message ClickHouse refuses on its own, while answering, before it is dropped. */
export const POISON_DELIVERIES = 5;

const idOf = (m: JsMsg) => m.headers?.get(MSG_ID) || `seq-${m.seq}`;

/** A stable token for one insert: the same messages give the same token, in any order. */
export function dedupeToken(ids: string[]): string {
  return createHash('sha256')
    .update([...ids].sort().join('\n'))
    .digest('hex');
}

/**
 * Writes fetched messages to ClickHouse and acks them after the insert; on failure they are
 * nak'ed with a backoff and come back later. Exactly once per batch:
 * - the same insert retried (its ack lost, or the answer of ClickHouse lost) carries the same
 *   `insert_deduplication_token` and is stored once;
 * - a message redelivered after its insert succeeded (the process died before acking) may come
 *   back grouped with others, so its batch id is looked up first and it is only acked;
 * - a message delivered twice in one fetch is inserted once.
 * An insert is one part (no partitioning), so a batch is either wholly stored or not at all.
 * A message ClickHouse refuses while it answers other queries is dropped (term) after
 * POISON_DELIVERIES attempts; while ClickHouse does not answer, messages wait however long.
 */
export async function writeMessages(store: Store, messages: JsMsg[], log: Logger): Promise<void> {
  try {
    await insertOnce(store, messages);
  } catch (err) {
    // ClickHouse answers but refuses the insert: one message may be bad. Each is tried alone, so
    // that one bad message does not hold back the others.
    if (await store.healthy()) {
      if (messages.length > 1) {
        for (const m of messages) await writeMessages(store, [m], log);
        return;
      }
      const [m] = messages as [JsMsg];
      if (m.info.deliveryCount >= POISON_DELIVERIES) {
        log.error({ err, id: idOf(m), deliveries: m.info.deliveryCount }, 'insights batch refused by ClickHouse every time; dropped');
        m.term();
        return;
      }
    }
    log.warn({ err, messages: messages.length }, 'insights insert failed; the batch will be redelivered');
    for (const m of messages) m.nak(Math.min(MAX_BACKOFF_MS, 500 * 2 ** (m.info.redeliveryCount - 1)));
  }
}

async function insertOnce(store: Store, messages: JsMsg[]): Promise<void> {
  const timed = timeJob('insights.write');
  await insertFresh(store, messages).then(
    () => timed('ok'),
    (err: unknown) => {
      timed('error');
      throw err;
    },
  );
}

async function insertFresh(store: Store, messages: JsMsg[]): Promise<void> {
  // A message whose ack wait ran out while its fetch was still open comes twice in that fetch:
  // its rows go in once, and every delivery is acked.
  let fresh = [...new Map(messages.map((m) => [idOf(m), m])).values()];
  const redelivered = fresh.filter((m) => m.info.redelivered);
  if (redelivered.length > 0) {
    const stored = await store.storedBatches(redelivered.map(idOf));
    fresh = fresh.filter((m) => !stored.has(idOf(m)));
  }
  if (fresh.length > 0) await store.insert(Buffer.concat(fresh.map((m) => m.data)), dedupeToken(fresh.map(idOf)));
  for (const m of messages) m.ack();
}

export interface Writer {
  /** Finishes the batch in hand and stops consuming. */
  stop(): Promise<void>;
}

/**
 * How long a batch that has begun waits for more messages before it is written. An insert costs
 * chdb about 25 ms of CPU however few its rows (its part, projections and dedupe entry), then
 * about 20 ms per 1,000 events: half a second keeps a steady trickle to two inserts a second and
 * a heavy load to inserts of 10,000 rows and more, while events stay visible within a second.
 */
export const FLUSH_MS = 500;

/**
 * The consumer loop: takes messages as they come and writes them in batches of up to
 * `batchMessages`, a batch at most FLUSH_MS after its first message arrived. A continuous pull
 * (`consume`) rather than one fetch after another: a fetch ends on a client timer, and a fetch
 * that ended while its messages were still unread in a starved process dropped them until their
 * ack wait (a minute) ran out. What is held in memory is bounded by the consumer's
 * max_ack_pending (maxUnacked), as the server sends no more while that many wait for their ack.
 */
export function startWriter(consumer: Consumer, store: Store, log: Logger, batchMessages: number): Writer {
  let stopping = false;
  let current: ConsumerMessages | undefined;
  const loop = (async () => {
    while (!stopping) {
      try {
        current = await consumer.consume({ max_messages: batchMessages, expires: 30_000 });
        if (stopping) current.stop();
        await writeAsTheyCome(current, store, log, batchMessages);
      } catch (err) {
        if (stopping) break;
        log.error({ err }, 'insights consume failed');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      current?.stop();
      await loop;
    },
  };
}

async function writeAsTheyCome(messages: ConsumerMessages, store: Store, log: Logger, batchMessages: number): Promise<void> {
  const iterator = messages[Symbol.asyncIterator]();
  let batch: JsMsg[] = [];
  let next = iterator.next();
  // Set by a batch's first message: messages arriving steadily, closer together than FLUSH_MS,
  // must not hold a batch back until it is full.
  let due: Promise<'due'> | undefined;
  let timer: NodeJS.Timeout | undefined;
  for (;;) {
    const got = due === undefined ? await next : await Promise.race([next, due]);
    if (got !== 'due' && !got.done) {
      batch.push(got.value);
      next = iterator.next();
      due ??= new Promise<'due'>((resolve) => (timer = setTimeout(() => resolve('due'), FLUSH_MS)));
      if (batch.length < batchMessages) continue;
    }
    clearTimeout(timer);
    due = undefined;
    if (batch.length > 0) await writeMessages(store, batch, log);
    batch = [];
    if (got !== 'due' && got.done) return;
  }
}

/** The consumer's max_ack_pending for batches of `batchMessages`: what a writer may hold unacked. */
export const maxUnacked = (batchMessages: number) => 4 * batchMessages;
