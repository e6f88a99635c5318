import { status } from '@grpc/grpc-js';
import type { GitInfo } from '@quire/proto/gitsync';
import { STATE_EVENTS } from '@quire/service-kit/nats';
import { DomainError, type CallContext } from '@quire/service-kit';
import type { Credentials } from '../domain/sealed.ts';
import { sealCredentials } from '../domain/sealed.ts';
import { presentInfo } from '../presenters.ts';
import type { LinkInfo, NewJob } from '../store/index.ts';
import type { Deps } from './deps.ts';

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

/**
 * Stores the job (and the space's link) and queues it with its credentials sealed to it; the
 * audit log hears that it started. A queue that does not take it fails the job: UNAVAILABLE.
 */
export async function enqueue(
  deps: Deps,
  ctx: CallContext,
  space: { id: string; organizationId: string },
  job: Omit<NewJob, 'spaceId'>,
  link: LinkInfo,
  credentials: Credentials | undefined,
): Promise<string> {
  const row = await deps.store.createJob({ ...job, spaceId: space.id }, link);
  await linkChanged(deps, presentInfo({ link: row }), space.organizationId, ctx);
  try {
    await deps.publish({ jobId: job.id, ...(credentials ? { credentials: sealCredentials(credentials, job.id, deps.secretsKey) } : {}) });
  } catch (err) {
    ctx.log.error({ err, jobId: job.id }, 'queueing a git job failed');
    await deps.store.fail({ id: job.id }, 'The job could not be queued');
    throw new DomainError(status.UNAVAILABLE, 'unavailable', 'The job queue is unavailable, try again');
  }
  // The repository's address without credentials (sealed on the job message only) or a query that may carry a token.
  const url = new URL(job.url);
  url.search = '';
  const details = { jobId: job.id, url: url.href, ref: job.ref, ...(job.pushOid ? { commit: job.pushOid } : {}) };
  await deps.events.emit(ctx, { entity: 'git', verb: `${job.direction}_started`, organizationId: space.organizationId, target: { type: 'space', id: space.id }, details });
  return job.id;
}
