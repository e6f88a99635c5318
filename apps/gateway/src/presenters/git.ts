import type { Static } from '@sinclair/typebox';
import type { GitInfo as GitInfoMsg, RepositoryOptions } from '@quire/proto/gitsync';
import type { ExportBody, GitInfo, GitJob, GitSyncState, ImportBody } from '../schemas/git.ts';
import { iso } from './time.ts';

/** The body's repository fields as the git-sync service takes them. */
export function repositoryOptions(b: Static<typeof ImportBody> | Static<typeof ExportBody>): RepositoryOptions {
  return {
    url: b.url,
    ref: b.ref,
    repoCacheId: b.repoCacheID ?? '',
    repoTreeUrl: b.repoTreeURL ?? '',
    repoCommitUrl: b.repoCommitURL ?? '',
    repoProjectDirectory: b.repoProjectDirectory ?? '',
    timestamp: b.timestamp ? new Date(b.timestamp) : undefined,
    force: b.force ?? false,
    gitInfo: b.gitInfo ? { provider: b.gitInfo.provider ?? '', url: b.gitInfo.url ?? '' } : undefined,
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
