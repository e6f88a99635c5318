import type { Logger } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { ensurePullConsumer, isStateEvent, type NatsConnection } from '@quire/service-kit/nats';
import { auditRows, parseEvent, userOfEvent } from './domain/audit.ts';
import type { Store } from './store/index.ts';

const NS_PER_MS = 1_000_000;

/**
 * Writes the domain events of every service (the EVENTS stream, `<prefix>.>`) into the audit
 * log. A durable consumer shared by the replicas; a message is acked once its entries are
 * written, and a redelivered one is written once (unique per event and organization).
 */
export async function startAuditConsumer(nc: NatsConnection, stream: string, subjectPrefix: string, store: Store, log: Logger) {
  const durable = 'orgs-audit';
  await ensurePullConsumer(nc, stream, { durable_name: durable, filter_subject: `${subjectPrefix}.>`, ack_wait: 30_000 * NS_PER_MS, max_deliver: -1 });
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: 100 });
  const done = (async () => {
    for await (const m of messages) {
      const event = parseEvent(m.string());
      if (!event) {
        log.warn({ subject: m.subject, seq: m.seq }, 'not a domain event; dropped');
        m.term();
        continue;
      }
      // State for other services' copies, not an action: nothing to audit.
      if (isStateEvent(event)) {
        m.ack();
        continue;
      }
      try {
        const user = event.organizationId ? undefined : userOfEvent(event);
        const organizationIds = user ? await store.organizationIdsOf(user) : [];
        await store.appendAudit(auditRows(event, organizationIds, newId));
        m.ack();
      } catch (err) {
        log.warn({ err, id: event.id }, 'audit entry not written; redelivered later');
        m.nak(Math.min(30_000, 500 * 2 ** m.info.redeliveryCount));
      }
    }
  })();
  return async () => {
    await messages.close();
    await done;
  };
}
