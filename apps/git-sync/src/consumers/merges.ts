import type { OrgsServiceClient } from '@quire/proto/orgs';
import type { Logger, PromiseClient } from '@quire/service-kit';
import { startMergeConsumer, type ChangeRequestMerged } from '@quire/service-kit/merged-events';
import type { NatsConnection } from '@quire/service-kit/nats';
import type { Deps } from '../rpc/deps.ts';
import { sealCredentials } from '../domain/sealed.ts';
import { hookCredentials, queueFromHook } from '../rpc/webhooks.ts';

export type MergeDeps = Deps & { orgs: Pick<PromiseClient<OrgsServiceClient>, 'getCurrentUser'> };

/** The commit's message: the change request's subject, as GitBook writes it (a subject left empty says which change request). */
export const commitMessageOf = (m: Pick<ChangeRequestMerged, 'subject' | 'changeRequestId'>) => m.subject.trim() || `Merge change request ${m.changeRequestId}`;

/**
 * Queues the export of a merge into a space with continuous sync (a webhook set up): one job per
 * change request, authored by the merger. A redelivered event finds its job: queued still (the
 * publish may not have happened), it is published again (the queue drops a duplicate by its id).
 */
export async function exportMerge(deps: MergeDeps, merge: ChangeRequestMerged, log: Logger): Promise<void> {
  const hook = await deps.store.getWebhook(merge.spaceId);
  if (!hook) return;
  const ctx = { userId: merge.mergedBy, chain: [], requestId: `git-merge-${merge.eventId}`, log };
  const queued = await deps.store.mergeJob(merge.spaceId, merge.changeRequestId);
  if (queued) {
    const credentials = hookCredentials(deps, hook);
    if (queued.state === 'queued') await deps.publish({ jobId: queued.id, ...(credentials ? { credentials: sealCredentials(credentials, queued.id, deps.secretsKey) } : {}) });
    return;
  }
  const user = await deps.orgs.getCurrentUser({}, ctx);
  const author = { name: user.displayName || user.email, email: user.email };
  await queueFromHook(deps, ctx, hook, {
    id: deps.newId(),
    userId: merge.mergedBy,
    direction: 'export',
    changeRequestId: merge.changeRequestId,
    author,
    commitMessage: commitMessageOf(merge),
  });
}

/**
 * Exports each merge into a Git-synced space as a commit on its branch: a durable consumer of
 * content's `change_request.merged` events shared by the replicas (the merge is one event, written
 * with the merge revision, whichever service asked for it).
 */
export function startMergeExports(nc: NatsConnection, stream: string, subjectPrefix: string, deps: MergeDeps, log: Logger) {
  return startMergeConsumer(nc, { stream, subjectPrefix, durable: 'git-sync-merges' }, (merge) => exportMerge(deps, merge, log), 'merge not exported', log);
}
