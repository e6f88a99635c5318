import { AUTH_REVOKED_SUBJECT, eventSink, type EventSink, type NatsConnection } from '@quire/service-kit/nats';
import type { Logger } from '@quire/service-kit';

export interface Events extends EventSink {
  /** Tells every gateway replica that these credential hashes no longer work. */
  revoked(hashes: string[]): Promise<void>;
}

export function natsEvents(nc: NatsConnection, subjectPrefix: string, log: Logger): Events {
  return {
    ...eventSink(nc, 'orgs', subjectPrefix, log),
    async revoked(hashes) {
      // 1000 hashes (65 kB) a message, well under NATS's payload limit.
      for (let i = 0; i < hashes.length; i += 1000) nc.publish(AUTH_REVOKED_SUBJECT, JSON.stringify({ hashes: hashes.slice(i, i + 1000) }));
      if (hashes.length === 0) return;
      // Sent before the call answers, so the caller's next request meets no stale cache.
      await nc.flush().catch((err: unknown) => log.error({ err }, 'revocation not broadcast'));
    },
  };
}
