import type { Space as SpaceMsg } from '@quire/proto/content';
import type { SpaceCounters } from '@quire/proto/review';
import type { Caller } from '@quire/service-kit';
import type { Static } from '@sinclair/typebox';
import type { Services } from '../clients.ts';
import type { Space } from '../schemas/content.ts';
import type { GitSyncState } from '../schemas/git.ts';
import { presentSpace } from './content.ts';
import { presentGitSyncState } from './git.ts';
import type { Urls } from './urls.ts';

interface Extras {
  counters: Map<string, SpaceCounters>;
  gitSync: Map<string, Static<typeof GitSyncState>>;
}

/**
 * Spaces as the API shows them: content's fields, the review service's counters (open comments,
 * change requests) and the git-sync service's link, each asked of its service in ONE call
 * whatever the number of spaces. Both services answer for spaces the caller was shown by content.
 */
export function spacePresenter({ review, gitSync }: Pick<Services, 'review' | 'gitSync'>, urls: Urls) {
  async function extras(spaceIds: string[], caller: Caller): Promise<Extras> {
    if (!spaceIds.length) return { counters: new Map(), gitSync: new Map() };
    const [{ counters }, { items }] = await Promise.all([review.batchGetSpaceCounters({ spaceIds }, caller), gitSync.batchGetGitInfo({ spaceIds }, caller)]);
    return { counters: new Map(counters.map((c) => [c.spaceId, c])), gitSync: new Map(items.map((i) => [i.spaceId, presentGitSyncState(i)])) };
  }
  const show = (s: SpaceMsg, e: Extras) => presentSpace(s, urls, e.counters.get(s.id), e.gitSync.get(s.id));

  return {
    async many(spaces: SpaceMsg[], caller: Caller): Promise<Static<typeof Space>[]> {
      const e = await extras(spaces.map((s) => s.id), caller);
      return spaces.map((s) => show(s, e));
    },
    /**
     * One space whose id is known before content answers: the counters and the link are asked for
     * at the same time, not after. When content refuses (hidden, missing), they are dropped unseen.
     */
    async one(spaceId: string, space: Promise<SpaceMsg>, caller: Caller): Promise<Static<typeof Space>> {
      const [s, e] = await Promise.all([space, extras([spaceId], caller)]);
      return show(s, e);
    },
    /** A space just made (created, duplicated): no change requests, comments or Git link yet. */
    created: (s: SpaceMsg) => presentSpace(s, urls),
  };
}

export type SpacePresenter = ReturnType<typeof spacePresenter>;
