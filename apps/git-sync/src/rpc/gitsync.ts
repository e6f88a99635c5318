import type { GitSyncServiceServer, RepositoryOptions } from '@quire/proto/gitsync';
import { COMMON, GIT_SYNC } from '@quire/proto/limits';
import { callerOf, checkLength, checkOneOf, checkUri, InvalidArgumentError, NotFoundError, PermissionDeniedError, type CallContext, type Handlers } from '@quire/service-kit';
import { checkProjectDirectory, checkRef, parseRemote, providerOf, repoNameOf } from '../domain/remote.ts';
import { presentInfo } from '../presenters.ts';
import type { LinkInfo, NewJob } from '../store/index.ts';
import { enqueue } from './enqueue.ts';
import { webhookHandlers } from './webhooks.ts';
import type { Deps } from './deps.ts';

type H = Handlers<GitSyncServiceServer>;

const PROVIDERS = ['github', 'gitlab'];
// The integration that provides the link, as GitBook names its Git Sync integrations.
const INTEGRATION = 'git-sync';

/** The space's link as a job from `url` (without credentials) with these options sets it. */
export const linkInfo = (url: string, o: Pick<RepositoryOptions, 'gitInfo' | 'repoTreeUrl'>): LinkInfo => ({
  repoName: repoNameOf(url),
  installationProvider: providerOf(url, o.gitInfo?.provider || undefined),
  integration: INTEGRATION,
  url: o.gitInfo?.url || o.repoTreeUrl || url,
});

/** The space as the caller sees it; content's refusal (hidden or missing) passes on as it is. */
const spaceFor = (deps: Deps, spaceId: string, ctx: CallContext) => deps.content.getSpace({ spaceId }, ctx);

export function checkOptions(o: RepositoryOptions | undefined, allowFile: boolean) {
  if (!o) throw new InvalidArgumentError('url: required');
  checkLength('url', o.url, COMMON.url);
  const remote = parseRemote(o.url, allowFile);
  checkRef(o.ref);
  if (o.repoTreeUrl) checkUri('repoTreeURL', o.repoTreeUrl);
  if (o.repoCommitUrl) checkUri('repoCommitURL', o.repoCommitUrl);
  if (o.repoCacheId) checkLength('repoCacheID', o.repoCacheId, GIT_SYNC.repoCacheID);
  const projectDirectory = checkProjectDirectory(checkLength('repoProjectDirectory', o.repoProjectDirectory, GIT_SYNC.repoProjectDirectory));
  const provider = o.gitInfo?.provider;
  if (provider) checkOneOf('gitInfo.provider', provider, PROVIDERS);
  if (o.gitInfo?.url) checkUri('gitInfo.url', o.gitInfo.url);
  return { remote, projectDirectory };
}

export function gitSyncHandlers(deps: Deps): H {
  const now = deps.now ?? (() => new Date());

  async function queue(ctx: CallContext, spaceId: string, o: RepositoryOptions | undefined, kind: Pick<NewJob, 'direction' | 'standalone' | 'commitMessage'>) {
    const userId = callerOf(ctx);
    const { remote, projectDirectory } = checkOptions(o, deps.allowFileRemotes);
    const options = o!;
    const space = await spaceFor(deps, spaceId, ctx);
    if (!space.permissions?.triggerGitSync) throw new PermissionDeniedError(`You cannot run Git sync on space "${spaceId}"`);
    const id = deps.newId();
    const job = {
      id,
      userId,
      url: remote.url,
      ref: options.ref,
      repoTreeUrl: options.repoTreeUrl || undefined,
      repoCommitUrl: options.repoCommitUrl || undefined,
      repoProjectDirectory: projectDirectory || undefined,
      force: options.force,
      timestamp: options.timestamp ?? now(),
      ...kind,
    };
    await enqueue(deps, ctx, space, job, linkInfo(remote.url, options), remote.credentials);
    return { jobId: id };
  }

  return {
    ...webhookHandlers(deps),

    async importRepository(req, ctx) {
      return queue(ctx, req.spaceId, req.repository, { direction: 'import', standalone: req.standalone });
    },

    async exportRepository(req, ctx) {
      checkLength('commitMessage', req.commitMessage.trim(), GIT_SYNC.commitMessage);
      return queue(ctx, req.spaceId, req.repository, { direction: 'export', standalone: false, commitMessage: req.commitMessage });
    },

    async getGitInfo({ spaceId }, ctx) {
      callerOf(ctx);
      const space = await spaceFor(deps, spaceId, ctx);
      const [info] = await deps.store.batchInfo([space.id]);
      if (!info) throw new NotFoundError(`No Git sync is set up on space "${spaceId}"`);
      return presentInfo(info);
    },

    async batchGetGitInfo({ spaceIds }) {
      if (spaceIds.length > COMMON.batchIds.max) throw new InvalidArgumentError(`spaceIds: at most ${COMMON.batchIds.max}`);
      return { items: (await deps.store.batchInfo(spaceIds)).map(presentInfo) };
    },
  };
}
