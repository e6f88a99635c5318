import type { Static } from '@sinclair/typebox';
import type { GitInfo as GitInfoMsg, RepositoryOptions, SyncLogEntry as SyncLogEntryMsg } from '@quire/proto/gitsync';
import type { ExportBody, GitInfo, GitJob, GitSyncState, ImportBody, SyncLogEntry, WebhookBody } from '../schemas/git.ts';
import { iso } from './time.ts';

/** The body's repository fields as the git-sync service takes them. */
export function repositoryOptions(b: Static<typeof ImportBody> | Static<typeof ExportBody> | Static<typeof WebhookBody>): RepositoryOptions {
  const o: Partial<Static<typeof ImportBody>> = b;
  return {
    url: b.url,
    ref: b.ref,
    repoCacheId: o.repoCacheID ?? '',
    repoTreeUrl: b.repoTreeURL ?? '',
    repoCommitUrl: b.repoCommitURL ?? '',
    repoProjectDirectory: b.repoProjectDirectory ?? '',
    timestamp: o.timestamp ? new Date(o.timestamp) : undefined,
    force: o.force ?? false,
    gitInfo: o.gitInfo ? { provider: o.gitInfo.provider ?? '', url: o.gitInfo.url ?? '' } : undefined,
  };
}

/** The link as a Space shows it (from git-sync's GitInfo, or content's copy of it). */
export function presentGitSyncState(i: Pick<GitInfoMsg, 'repoName' | 'installationProvider' | 'integration' | 'url' | 'updatedAt'>): Static<typeof GitSyncState> {
  return {
    repoName: i.repoName,
    ...(i.installationProvider ? { installationProvider: i.installationProvider as 'github' | 'gitlab' } : {}),
    integration: i.integration,
    url: i.url,
    updatedAt: iso(i.updatedAt),
  };
}

export function presentGitInfo(i: GitInfoMsg): Static<typeof GitInfo> {
  const j = i.latestJob;
  const job: Static<typeof GitJob> | undefined = j && {
    id: j.id,
    direction: j.direction as 'import' | 'export',
    state: j.state as 'queued' | 'running' | 'done' | 'failed',
    ...(j.error ? { error: j.error } : {}),
    ...(j.revisionId ? { revision: j.revisionId } : {}),
    ...(j.commitOid ? { commit: j.commitOid } : {}),
    createdAt: iso(j.createdAt),
    ...(j.startedAt ? { startedAt: iso(j.startedAt) } : {}),
    ...(j.completedAt ? { completedAt: iso(j.completedAt) } : {}),
    filesDone: j.filesDone,
    filesTotal: j.filesTotal,
  };
  return { ...presentGitSyncState(i), ...(job ? { job } : {}) };
}

/** A sync log line: empty fields left out. */
export function presentSyncLogEntry(e: SyncLogEntryMsg): Static<typeof SyncLogEntry> {
  const given = (key: string, value: string) => (value ? { [key]: value } : {});
  return {
    id: e.id,
    direction: e.direction as 'import' | 'export',
    trigger: e.trigger as Static<typeof SyncLogEntry>['trigger'],
    ...given('user', e.userId),
    ...given('provider', e.provider),
    ...given('deliveryId', e.deliveryId),
    ...given('changeRequest', e.changeRequestId),
    ...given('ref', e.ref),
    ...given('commit', e.commitOid),
    result: e.result as Static<typeof SyncLogEntry>['result'],
    ...given('reason', e.reason),
    pagesChanged: e.pagesChanged,
    attempts: e.attempts,
    ...given('job', e.jobId),
    createdAt: iso(e.createdAt),
    ...(e.startedAt ? { startedAt: iso(e.startedAt) } : {}),
    ...(e.completedAt ? { completedAt: iso(e.completedAt) } : {}),
  };
}
