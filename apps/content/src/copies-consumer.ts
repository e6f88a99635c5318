import type { Logger } from '@quire/service-kit';
import { ensurePullConsumer, isStateEvent, parseDomainEvent, type NatsConnection } from '@quire/service-kit/nats';
import { copyUpdateOf } from './domain/copies.ts';
import { applyCopyUpdate } from './rpc/copies.ts';
import type { Store } from './store/index.ts';

const NS_PER_MS = 1_000_000;

/**
 * Keeps the copies of what a Space shows from the owners' state events on the EVENTS stream
 * (`<prefix>.*.space.*`: review's counters, git-sync's links). A durable consumer shared by the
 * replicas; each event carries the owner's version for the space, so a redelivered, duplicated
 * or late event leaves a newer copy as it is. Events about spaces that feed no copy are acked.
 */
export async function startCopyConsumer(nc: NatsConnection, stream: string, subjectPrefix: string, store: Store, log: Logger) {
  const durable = 'content-space-copies';
  await ensurePullConsumer(nc, stream, { durable_name: durable, filter_subject: `${subjectPrefix}.*.space.*`, ack_wait: 30_000 * NS_PER_MS, max_deliver: -1 });
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: 100 });
  const done = (async () => {
    for await (const m of messages) {
      const event = parseDomainEvent(m.string());
      const update = event && copyUpdateOf(event);
      if (!update) {
        if (!event || isStateEvent(event)) log.warn({ subject: m.subject, seq: m.seq }, 'not a well-formed event; dropped');
        m.ack();
        continue;
      }
      try {
        await applyCopyUpdate(store, update);
        m.ack();
      } catch (err) {
        log.warn({ err, id: event.id }, 'space copy not written; redelivered later');
        m.nak(Math.min(30_000, 500 * 2 ** m.info.redeliveryCount));
      }
    }
  })();
  return async () => {
    await messages.close();
    await done;
  };
}
