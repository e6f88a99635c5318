import type { GitInfo, GitJob } from '@quire/proto/gitsync';
import type { GitSyncRow, JobRow } from './store/index.ts';

// Row to proto message. `applying` is part of running for callers.

export function presentJob(j: JobRow): GitJob {
  return {
    id: j.id,
    direction: j.direction,
    state: j.state === 'applying' ? 'running' : j.state,
    error: j.error ?? '',
    revisionId: j.revisionId ?? '',
    commitOid: j.state === 'done' ? (j.commitOid ?? '') : '',
    createdAt: j.createdAt,
    startedAt: j.startedAt ?? undefined,
    completedAt: j.completedAt ?? undefined,
    filesDone: j.filesDone,
    filesTotal: j.filesTotal,
  };
}

export function presentInfo({ link, job }: { link: GitSyncRow; job?: JobRow }): GitInfo {
  return {
    spaceId: link.spaceId,
    repoName: link.repoName,
    installationProvider: link.installationProvider ?? '',
    integration: link.integration,
    url: link.url,
    updatedAt: link.updatedAt,
    latestJob: job ? presentJob(job) : undefined,
    version: Number(link.version),
  };
}
