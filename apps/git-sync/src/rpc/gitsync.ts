import { status } from '@grpc/grpc-js';
import type { GitInfo, GitSyncServiceServer, RepositoryOptions } from '@quire/proto/gitsync';
import { COMMON, GIT_SYNC } from '@quire/proto/limits';
import { STATE_EVENTS } from '@quire/service-kit/nats';
import {
  callerOf,
  checkLength,
  checkOneOf,
  checkUri,
  DomainError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  type CallContext,
  type Handlers,
} from '@quire/service-kit';
import { checkProjectDirectory, checkRef, parseRemote, providerOf, repoNameOf } from '../domain/remote.ts';
import { sealCredentials } from '../domain/sealed.ts';
import { presentInfo } from '../presenters.ts';
import type { NewJob } from '../store/index.ts';
import type { Deps } from './deps.ts';

type H = Handlers<GitSyncServiceServer>;

const PROVIDERS = ['github', 'gitlab'];
// The integration that provides the link, as GitBook names its Git Sync integrations.
const INTEGRATION = 'git-sync';

/** The space as the caller sees it; content's refusal (hidden or missing) passes on as it is. */
const spaceFor = (deps: Deps, spaceId: string, ctx: CallContext) => deps.content.getSpace({ spaceId }, ctx);

function checkOptions(o: RepositoryOptions | undefined, allowFile: boolean) {
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

const { entity, verb } = STATE_EVENTS.spaceGitLink;

/**
 * After the space's link was set: the link, at its new version, to content at once (the next
 * Space shown has it) and as a state event on EVENTS (which feeds content's copy whatever that
 * call missed). The link is stored: neither failing fails the call.
 */
async function linkChanged(deps: Deps, info: GitInfo, organizationId: string, ctx: CallContext) {
  const { latestJob: _job, ...link } = info;
  await Promise.all([
    deps.content
      .recordSpaceGitLinks({ links: [link] }, {})
      .catch((err: unknown) => ctx.log.warn({ err, spaceId: link.spaceId }, 'Git link not recorded by content; the event brings it')),
    deps.events.emit(ctx, { entity, verb, organizationId, target: { type: 'space', id: link.spaceId }, details: { ...link, updatedAt: link.updatedAt?.toISOString() } }),
  ]);
}

export function gitSyncHandlers(deps: Deps): H {
  const now = deps.now ?? (() => new Date());

  async function queue(ctx: CallContext, spaceId: string, o: RepositoryOptions | undefined, job: Pick<NewJob, 'direction' | 'standalone' | 'commitMessage'>) {
    const userId = callerOf(ctx);
    const { remote, projectDirectory } = checkOptions(o, deps.allowFileRemotes);
    const options = o!;
    const space = await spaceFor(deps, spaceId, ctx);
    if (!space.permissions?.triggerGitSync) throw new PermissionDeniedError(`You cannot run Git sync on space "${spaceId}"`);
    const id = deps.newId();
    const link = await deps.store.createJob(
      {
        id,
        spaceId: space.id,
        userId,
        url: remote.url,
        ref: options.ref,
        repoTreeUrl: options.repoTreeUrl || undefined,
        repoCommitUrl: options.repoCommitUrl || undefined,
        repoProjectDirectory: projectDirectory || undefined,
        force: options.force,
        timestamp: options.timestamp ?? now(),
        ...job,
      },
      {
        repoName: repoNameOf(remote.url),
        installationProvider: providerOf(remote.url, options.gitInfo?.provider || undefined),
        integration: INTEGRATION,
        url: options.gitInfo?.url || options.repoTreeUrl || remote.url,
      },
    );
    await linkChanged(deps, presentInfo({ link }), space.organizationId, ctx);
    try {
      await deps.publish({ jobId: id, ...(remote.credentials ? { credentials: sealCredentials(remote.credentials, id, deps.secretsKey) } : {}) });
    } catch (err) {
      ctx.log.error({ err, jobId: id }, 'queueing a git job failed');
      await deps.store.fail({ id }, 'The job could not be queued');
      throw new DomainError(status.UNAVAILABLE, 'unavailable', 'The job queue is unavailable, try again');
    }
    // The repository's address without credentials (sealed on the job message only) or a query that may carry a token.
    const url = new URL(remote.url);
    url.search = '';
    const details = { jobId: id, url: url.href, ref: options.ref };
    await deps.events.emit(ctx, { entity: 'git', verb: `${job.direction}_started`, organizationId: space.organizationId, target: { type: 'space', id: space.id }, details });
    return { jobId: id };
  }

  return {
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
