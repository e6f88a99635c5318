import type { Logger } from '@quire/service-kit';
import { startEventConsumer } from '@quire/service-kit/event-consumer';
import { newId } from '@quire/service-kit/ids';
import { isStateEvent, type NatsConnection } from '@quire/service-kit/nats';
import { auditRows, parseEvent, userOfEvent } from '../domain/audit.ts';
import type { Store } from '../store/index.ts';

/**
 * Writes the domain events of every service (the EVENTS stream, `<prefix>.>`) into the audit
 * log. A durable consumer shared by the replicas; a message is acked once its entries are
 * written, and a redelivered one is written once (unique per event and organization).
 */
export function startAuditConsumer(nc: NatsConnection, stream: string, subjectPrefix: string, store: Store, log: Logger) {
  return startEventConsumer(
    nc,
    stream,
    {
      durable: 'orgs-audit',
      filterSubject: `${subjectPrefix}.>`,
      read: (data) => {
        const event = parseEvent(data);
        if (!event) return null;
        // State for other services' copies, not an action: nothing to audit.
        if (isStateEvent(event)) return 'skip';
        return {
          id: event.id,
          run: async () => {
            const user = event.organizationId ? undefined : userOfEvent(event);
            const organizationIds = user ? await store.organizationIdsOf(user) : [];
            await store.appendAudit(auditRows(event, organizationIds, newId));
          },
        };
      },
      malformed: 'not a domain event',
      dropBy: 'term',
      failed: 'audit entry not written',
    },
    log,
  );
}
