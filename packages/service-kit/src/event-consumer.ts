import type { NatsConnection } from 'nats';
import type { Logger } from './logger.js';
import { ensurePullConsumer, parseDomainEvent, type DomainEvent } from './nats.js';

const NS_PER_MS = 1_000_000;

/** What a message asks of a consumer: `run` does it (what it resolves to is not used); `id` names the event in the logs. */
export interface EventWork {
  id: string;
  run(): Promise<unknown>;
}

export interface EventConsumerConfig {
  /** The durable consumer, shared by the service's replicas. */
  durable: string;
  filterSubject: string;
  /**
   * Reads a message: the work it asks for; 'skip' when it asks nothing of this consumer (acked,
   * not logged); null when it is malformed (logged and dropped).
   */
  read(data: string): EventWork | 'skip' | null;
  /** Why a malformed message is dropped, for the warning (`<malformed>; dropped`). */
  malformed: string;
  /**
   * How a malformed message is dropped: acked (the default), or terminated, which tells the server
   * it was refused (the audit log's choice: an unreadable event is not merely off its subjects).
   */
  dropBy?: 'ack' | 'term';
  /** What a failed `run` left undone, for the warning (`<failed>; redelivered later`). */
  failed: string;
}

/**
 * The `read` of a consumer of domain events: an event `parse` makes something of is `run` with it;
 * one it makes nothing of is malformed, or skipped where `skip` says it is not this consumer's.
 */
export function readDomainEvents<T>(
  parse: (e: DomainEvent) => T | null,
  run: (t: T, e: DomainEvent) => Promise<unknown>,
  skip: (e: DomainEvent) => boolean = () => false,
): EventConsumerConfig['read'] {
  return (data) => {
    const event = parseDomainEvent(data);
    if (!event) return null;
    const t = parse(event);
    if (t !== null) return { id: event.id, run: () => run(t, event) };
    return skip(event) ? 'skip' : null;
  };
}

/**
 * Handles the events of `stream` one at a time from a durable pull consumer: a message is acked
 * once its work is done, and nak'ed on failure to come back after a backoff (doubling from half a
 * second to 30 s), for as long as it fails: the work must be idempotent, as a redelivered message
 * may have been done already. Resolves to the stop, which handles the messages already received,
 * then ends.
 */
export async function startEventConsumer(nc: NatsConnection, stream: string, config: EventConsumerConfig, log: Logger): Promise<() => Promise<void>> {
  const { durable } = config;
  await ensurePullConsumer(nc, stream, { durable_name: durable, filter_subject: config.filterSubject, ack_wait: 30_000 * NS_PER_MS, max_deliver: -1 });
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: 100 });
  const done = (async () => {
    for await (const m of messages) {
      const work = config.read(m.string());
      if (work === 'skip') {
        m.ack();
        continue;
      }
      if (!work) {
        log.warn({ subject: m.subject, seq: m.seq }, `${config.malformed}; dropped`);
        if (config.dropBy === 'term') m.term();
        else m.ack();
        continue;
      }
      try {
        await work.run();
        m.ack();
      } catch (err) {
        log.warn({ err, id: work.id }, `${config.failed}; redelivered later`);
        m.nak(Math.min(30_000, 500 * 2 ** m.info.redeliveryCount));
      }
    }
  })();
  return async () => {
    await messages.close();
    await done;
  };
}
