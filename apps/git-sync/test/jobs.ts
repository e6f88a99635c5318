import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { ExportRepositoryRequest, GetGitInfoRequest, GitInfo, GitJob, ImportRepositoryRequest, QueueJobResponse, RepositoryOptions } from '@quire/proto/gitsync';
import type { GetRevisionRequest, Page, Revision } from '@quire/proto/space-content';
import type { ContentHarness } from '@quire/content/testing';
import type { TestUser } from '@quire/orgs/testing';
import type { GitSyncHarness } from './harness.ts';

/** A space's Git Sync jobs as a user runs them: queued, then waited for until done or failed. */
export function gitSyncJobs(gs: GitSyncHarness, content: ContentHarness, owner: TestUser, orgId: string) {
  const options = (o: Partial<RepositoryOptions> & { url: string }): RepositoryOptions => ({
    ref: 'refs/heads/main',
    repoCacheId: '',
    repoTreeUrl: '',
    repoCommitUrl: '',
    repoProjectDirectory: '',
    force: false,
    ...o,
  });
  const info = (spaceId: string, as: TestUser = owner) => gs.call<GetGitInfoRequest, GitInfo>(gs.client.getGitInfo, { spaceId }, as.id);
  async function finished(spaceId: string, jobId: string): Promise<GitInfo> {
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      const i = await info(spaceId);
      if (i.latestJob?.id === jobId && (i.latestJob.state === 'done' || i.latestJob.state === 'failed')) return i;
    }
    throw new Error(`job ${jobId} did not finish`);
  }
  return {
    options,
    info,
    finished,
    createSpace: async () =>
      (await content.call<CreateSpaceRequest, Space>(content.client.createSpace, { organizationId: orgId, title: 'Docs', emoji: '', editMode: '', visibility: '' }, owner.id)).id,
    revision: (spaceId: string, revisionId = '', withMarkdown = true) =>
      content.callContent<GetRevisionRequest, Revision>(content.spaceContent.getRevision, { spaceId, revisionId, metadata: true, withMarkdown, withDocuments: false }, owner.id),
    importRepo: (spaceId: string, o: Partial<RepositoryOptions> & { url: string }, extra: { standalone?: boolean; as?: TestUser } = {}) =>
      gs.call<ImportRepositoryRequest, QueueJobResponse>(
        gs.client.importRepository,
        { spaceId, repository: options(o), standalone: extra.standalone ?? false },
        (extra.as ?? owner).id,
      ),
    exportRepo: (spaceId: string, o: Partial<RepositoryOptions> & { url: string }, commitMessage = 'Update docs') =>
      gs.call<ExportRepositoryRequest, QueueJobResponse>(gs.client.exportRepository, { spaceId, repository: options(o), commitMessage }, owner.id),
    /** The job once it is over. */
    run: async (spaceId: string, queued: Promise<QueueJobResponse>): Promise<GitJob> => (await finished(spaceId, (await queued).jobId)).latestJob!,
  };
}

export const flat = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flat(p.pages)]);
export const byTitle = (r: Revision, title: string) => flat(r.pages).find((p) => p.title === title)!;
