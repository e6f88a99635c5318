import type { Logger } from '@quire/service-kit';
import { readDomainEvents, startEventConsumer } from '@quire/service-kit/event-consumer';
import type { DomainEvent, NatsConnection } from '@quire/service-kit/nats';
import { recordMerge } from '../rpc/merges.ts';
import type { Deps } from '../rpc/deps.ts';

/** What a `content.change_request.merged` event says: the change request, its space and the merge revision. */
export function mergeOf(e: DomainEvent): { changeRequestId: string; spaceId: string; revisionId: string } | null {
  const { spaceId, revisionId } = e.details ?? {};
  if (e.service !== 'content' || e.entity !== 'change_request' || e.verb !== 'merged') return null;
  if (typeof e.target?.id !== 'string' || typeof spaceId !== 'string' || typeof revisionId !== 'string') return null;
  return { changeRequestId: e.target.id, spaceId, revisionId };
}

/**
 * Records the merges content made from its `change_request.merged` events, for those review did
 * not record itself (it stopped between content's answer and its own write). A durable consumer
 * shared by the replicas; recording is idempotent, so a redelivered event or one already recorded
 * by the merge call changes nothing.
 */
export function startMergeConsumer(nc: NatsConnection, stream: string, subjectPrefix: string, deps: Deps, log: Logger) {
  return startEventConsumer(
    nc,
    stream,
    {
      durable: 'review-merges',
      filterSubject: `${subjectPrefix}.content.change_request.merged`,
      read: readDomainEvents(mergeOf, async (merge) => {
        const cr = (await deps.store.changeRequestsByIds([merge.changeRequestId])).get(merge.changeRequestId);
        if (cr?.spaceId === merge.spaceId) await recordMerge(deps, cr, merge.revisionId, { log });
      }),
      malformed: 'not a well-formed merge event',
      failed: 'merge not recorded',
    },
    log,
  );
}
