import type { NatsConnection } from 'nats';
import { readDomainEvents, startEventConsumer } from './event-consumer.js';
import type { Logger } from './logger.js';
import type { DomainEvent } from './nats.js';

/** A change request merged into a space, as content's `change_request.merged` event says it. */
export interface ChangeRequestMerged {
  eventId: string;
  changeRequestId: string;
  spaceId: string;
  /** The merge revision. */
  revisionId: string;
  /** The change request's subject at the merge ('' when it had none). */
  subject: string;
  /** Who merged it. */
  mergedBy: string;
}

/** The merge an event reports, or null when it is not a well-formed `content.change_request.merged` event. */
export function changeRequestMerged(e: DomainEvent): ChangeRequestMerged | null {
  if (e.service !== 'content' || e.entity !== 'change_request' || e.verb !== 'merged') return null;
  const { spaceId, revisionId, subject } = e.details ?? {};
  if (typeof e.target?.id !== 'string' || typeof spaceId !== 'string' || typeof revisionId !== 'string' || typeof e.actor !== 'string') return null;
  return { eventId: e.id, changeRequestId: e.target.id, spaceId, revisionId, subject: typeof subject === 'string' ? subject : '', mergedBy: e.actor };
}

/**
 * A durable consumer of content's merges, shared by the service's replicas (`durable` names it):
 * `run` for each merge, redelivered until it succeeds, so it must be idempotent; `failed` says what
 * a failure left undone.
 */
export function startMergeConsumer(
  nc: NatsConnection,
  where: { stream: string; subjectPrefix: string; durable: string },
  run: (merge: ChangeRequestMerged) => Promise<unknown>,
  failed: string,
  log: Logger,
) {
  const config = {
    durable: where.durable,
    filterSubject: `${where.subjectPrefix}.content.change_request.merged`,
    read: readDomainEvents(changeRequestMerged, run),
    malformed: 'not a well-formed merge event',
    failed,
  };
  return startEventConsumer(nc, where.stream, config, log);
}
