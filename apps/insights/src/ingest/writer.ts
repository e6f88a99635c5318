import { createHash } from 'node:crypto';
import { timeJob, type Logger } from '@quire/service-kit';
import type { Consumer, JsMsg } from 'nats';
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
  /** Finishes the batch in hand and stops fetching. */
  stop(): Promise<void>;
}

/** The consumer loop: fetches up to `batchMessages` messages at a time and writes each fetch. */
export function startWriter(consumer: Consumer, store: Store, log: Logger, batchMessages: number): Writer {
  let stopping = false;
  let current: { stop(): void } | undefined;
  const loop = (async () => {
    while (!stopping) {
      try {
        const fetched = await consumer.fetch({ max_messages: batchMessages, expires: 1000 });
        current = fetched;
        const messages: JsMsg[] = [];
        for await (const m of fetched) messages.push(m);
        current = undefined;
        if (messages.length > 0) await writeMessages(store, messages, log);
      } catch (err) {
        if (stopping) break;
        log.error({ err }, 'insights fetch failed');
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
