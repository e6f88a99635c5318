import { newId } from '@quire/service-kit/ids';
import { AUTH_REVOKED_SUBJECT, publishEvent, type DomainEvent, type NatsConnection } from '@quire/service-kit/nats';
import type { CallContext, Logger } from '@quire/service-kit';

/** What a handler says happened; the rest (id, time, service, who, from where) is filled in. */
export type OrgsEvent = Pick<DomainEvent, 'entity' | 'verb' | 'organizationId' | 'target' | 'details'> & { actor?: string };

export interface Events {
  /**
   * Publishes a committed change to the EVENTS stream (the audit log reads it). A failure is
   * logged and does not fail the call whose change is already committed.
   */
  emit(ctx: Pick<CallContext, 'userId' | 'ip' | 'userAgent'>, event: OrgsEvent): Promise<void>;
  /** Tells every gateway replica that these credential hashes no longer work. */
  revoked(hashes: string[]): Promise<void>;
}

export function natsEvents(nc: NatsConnection, subjectPrefix: string, log: Logger): Events {
  const js = nc.jetstream();
  return {
    async emit(ctx, e) {
      const event: DomainEvent = {
        id: newId(),
        occurredAt: new Date().toISOString(),
        service: 'orgs',
        ...e,
        actor: e.actor ?? ctx.userId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      };
      await publishEvent(js, event, subjectPrefix).catch((err: unknown) => log.error({ err, action: `${e.entity}.${e.verb}` }, 'domain event not published'));
    },
    async revoked(hashes) {
      // 1000 hashes (65 kB) a message, well under NATS's payload limit.
      for (let i = 0; i < hashes.length; i += 1000) nc.publish(AUTH_REVOKED_SUBJECT, JSON.stringify({ hashes: hashes.slice(i, i + 1000) }));
      if (hashes.length === 0) return;
      // Sent before the call answers, so the caller's next request meets no stale cache.
      await nc.flush().catch((err: unknown) => log.error({ err }, 'revocation not broadcast'));
    },
  };
}
