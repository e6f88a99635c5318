import { GitSyncServiceClient, GitSyncServiceService } from '@quire/proto/gitsync';
import { ReviewServiceClient, ReviewServiceService } from '@quire/proto/review';
import { createClient, promiseClient, type ServiceIdentity } from '@quire/service-kit';
import type { Owners } from './rpc/copies.ts';

/** Review and git-sync at their addresses, asked as content itself (no user) for a Space's missing copies. */
export function connectOwners(reviewUrl: string, gitSyncUrl: string, identity: ServiceIdentity): Owners & { close(): void } {
  const reviewClient = createClient(ReviewServiceClient, reviewUrl);
  const gitSyncClient = createClient(GitSyncServiceClient, gitSyncUrl);
  const review = promiseClient(reviewClient, ReviewServiceService, { identity, audience: 'review' });
  const gitSync = promiseClient(gitSyncClient, GitSyncServiceService, { identity, audience: 'git-sync' });
  return {
    async counters(spaceIds) {
      return (await review.batchGetSpaceCounters({ spaceIds }, {})).counters;
    },
    async gitLinks(spaceIds) {
      const { items } = await gitSync.batchGetGitInfo({ spaceIds }, {});
      return items.map((i) => ({
        spaceId: i.spaceId,
        version: i.version,
        repoName: i.repoName,
        installationProvider: i.installationProvider,
        integration: i.integration,
        url: i.url,
        updatedAt: i.updatedAt,
      }));
    },
    close() {
      reviewClient.close();
      gitSyncClient.close();
    },
  };
}
