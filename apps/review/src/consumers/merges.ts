import type { Logger } from '@quire/service-kit';
import { startMergeConsumer, type ChangeRequestMerged } from '@quire/service-kit/merged-events';
import type { NatsConnection } from '@quire/service-kit/nats';
import { recordMerge } from '../rpc/merges.ts';
import type { Deps } from '../rpc/deps.ts';

/**
 * Records the merges content made from its `change_request.merged` events, for those review did
 * not record itself (it stopped between content's answer and its own write). A durable consumer
 * shared by the replicas; recording is idempotent, so a redelivered event or one already recorded
 * by the merge call changes nothing.
 */
export function startMergeRecords(nc: NatsConnection, stream: string, subjectPrefix: string, deps: Deps, log: Logger) {
  const record = async (merge: ChangeRequestMerged) => {
    const cr = (await deps.store.changeRequestsByIds([merge.changeRequestId])).get(merge.changeRequestId);
    if (cr?.spaceId === merge.spaceId) await recordMerge(deps, cr, merge.revisionId, { log });
  };
  return startMergeConsumer(nc, { stream, subjectPrefix, durable: 'review-merges' }, record, 'merge not recorded', log);
}
