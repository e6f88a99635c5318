import type { Logger } from '@quire/service-kit';
import { readDomainEvents, startEventConsumer } from '@quire/service-kit/event-consumer';
import { isStateEvent, type NatsConnection } from '@quire/service-kit/nats';
import { copyUpdateOf } from '../domain/copies.ts';
import { applyCopyUpdate } from '../rpc/copies.ts';
import type { Store } from '../store/index.ts';

/**
 * Keeps the copies of what a Space shows from the owners' state events on the EVENTS stream
 * (`<prefix>.*.space.*`: review's counters, git-sync's links). A durable consumer shared by the
 * replicas; each event carries the owner's version for the space, so a redelivered, duplicated
 * or late event leaves a newer copy as it is. Events about spaces that feed no copy are acked.
 */
export function startCopyConsumer(nc: NatsConnection, stream: string, subjectPrefix: string, store: Store, log: Logger) {
  return startEventConsumer(
    nc,
    stream,
    {
      durable: 'content-space-copies',
      filterSubject: `${subjectPrefix}.*.space.*`,
      // A state event should feed a copy: one that does not is malformed.
      read: readDomainEvents(
        copyUpdateOf,
        (update) => applyCopyUpdate(store, update),
        (e) => !isStateEvent(e),
      ),
      malformed: 'not a well-formed event',
      failed: 'space copy not written',
    },
    log,
  );
}
