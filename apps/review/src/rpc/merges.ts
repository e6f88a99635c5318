import type { CallContext, Logger } from '@quire/service-kit';
import { MERGE_TIMEOUT_MS } from '../domain/change-requests.ts';
import type { ChangeRequestRow } from '../store/index.ts';
import { countersChanged, type Deps } from './deps.ts';

/** Who a change made outside a call (an event, the start) is reported by: the log, no caller. */
type Reporter = Pick<CallContext, 'log' | 'userId' | 'ip' | 'userAgent'>;

/**
 * Records the merge content made (once) and, when that changed the change request, its space's
 * counters: by the state event alone, as for every merge (a merge is one call to content).
 */
export async function recordMerge(deps: Deps, cr: Pick<ChangeRequestRow, 'id' | 'spaceId' | 'organizationId'>, revision: string, ctx: Reporter): Promise<void> {
  if (await deps.store.recordMerged(cr.id, cr.spaceId, revision)) await countersChanged(deps, { id: cr.spaceId, organizationId: cr.organizationId }, ctx, { call: false });
}

/**
 * The change request as it is, once a merge review did not see end (it stopped between content's
 * answer and its own write, or the answer was lost) is settled: content says whether it merged
 * the change request; merged, that is recorded; not, and no longer possibly under way, the mark goes.
 */
export async function settleMerge(deps: Deps, cr: ChangeRequestRow, ctx: Reporter): Promise<ChangeRequestRow> {
  const startedAt = cr.mergeStartedAt;
  if (!startedAt || cr.status === 'merged') return cr;
  // As review itself: the caller reading the change request may not be one who may merge.
  const asked = await deps.spaceContent.getChangeRequestMerge({ spaceId: cr.spaceId, changeRequestId: cr.id }, {}).catch((err: unknown) => {
    // Content away: the change request shows as recorded, and is settled on a later read or start.
    ctx.log.warn({ err, changeRequestId: cr.id }, 'merge under way not settled: content did not answer');
  });
  if (!asked) return cr;
  const { revisionId } = asked;
  if (revisionId) await recordMerge(deps, cr, revisionId, ctx);
  else if (startedAt.getTime() < Date.now() - MERGE_TIMEOUT_MS) await deps.store.endMerge(cr.id, startedAt);
  else return cr;
  return (await deps.store.changeRequestsByIds([cr.id])).get(cr.id) ?? cr;
}

/** At start: every merge left under way (the process stopped during it) settled; answers how many were merged. */
export async function settleMerges(deps: Deps, log: Logger): Promise<number> {
  let merged = 0;
  for (const cr of await deps.store.mergesUnderWay()) if ((await settleMerge(deps, cr, { log })).status === 'merged') merged++;
  return merged;
}
