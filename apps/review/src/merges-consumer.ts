import type { Logger } from '@quire/service-kit';
import { ensurePullConsumer, parseDomainEvent, type DomainEvent, type NatsConnection } from '@quire/service-kit/nats';
import { recordMerge } from './rpc/merges.ts';
import type { Deps } from './rpc/deps.ts';

const NS_PER_MS = 1_000_000;

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
export async function startMergeConsumer(nc: NatsConnection, stream: string, subjectPrefix: string, deps: Deps, log: Logger) {
  const durable = 'review-merges';
  await ensurePullConsumer(nc, stream, { durable_name: durable, filter_subject: `${subjectPrefix}.content.change_request.merged`, ack_wait: 30_000 * NS_PER_MS, max_deliver: -1 });
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: 100 });
  const done = (async () => {
    for await (const m of messages) {
      const event = parseDomainEvent(m.string());
      const merge = event && mergeOf(event);
      if (!merge) {
        log.warn({ subject: m.subject, seq: m.seq }, 'not a well-formed merge event; dropped');
        m.ack();
        continue;
      }
      try {
        const cr = (await deps.store.changeRequestsByIds([merge.changeRequestId])).get(merge.changeRequestId);
        if (cr?.spaceId === merge.spaceId) await recordMerge(deps, cr, merge.revisionId, { log });
        m.ack();
      } catch (err) {
        log.warn({ err, id: event.id }, 'merge not recorded; redelivered later');
        m.nak(Math.min(30_000, 500 * 2 ** m.info.redeliveryCount));
      }
    }
  })();
  return async () => {
    await messages.close();
    await done;
  };
}
