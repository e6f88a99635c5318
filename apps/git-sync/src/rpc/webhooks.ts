import { randomBytes } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { GitSyncServiceServer, SyncLogEntry } from '@quire/proto/gitsync';
import { GIT_SYNC } from '@quire/proto/limits';
import {
  absentIfNull,
  emptyIfNull,
  callerOf,
  DomainError,
  InvalidArgumentError,
  NotFoundError,
  pageArgs,
  pageOf,
  PermissionDeniedError,
  UnauthenticatedError,
  type CallContext,
  type Handlers,
} from '@quire/service-kit';
import { seal, unseal } from '@quire/service-kit/sealed';
import { webhookCredentialsContext, webhookSecretContext, type Credentials } from '../domain/sealed.ts';
import { readDelivery, readPushes, verifyDelivery, type Delivery } from '../domain/webhook.ts';
import { logKey, type LogRow, type NewDelivery, type WebhookRow } from '../store/webhooks.ts';
import type { Deps } from './deps.ts';
import { enqueue } from './enqueue.ts';
import { checkOptions, linkInfo } from './gitsync.ts';

type H = Pick<Handlers<GitSyncServiceServer>, 'setWebhook' | 'receiveWebhook' | 'listSyncLog'>;

/** What a verified delivery comes to: a push of the linked branch's new commit, or a reason it imports nothing. */
type Decision = { reason: string; ref?: string; commitOid?: string } | { ref: string; commitOid: string; reason?: undefined };

const isPush = (d: Decision): d is { ref: string; commitOid: string } => d.reason === undefined;

async function decide(deps: Deps, hook: WebhookRow, delivery: Delivery, body: Buffer): Promise<Decision> {
  if (!delivery.isPush) return { reason: `${delivery.event} events import nothing` };
  const pushes = readPushes(delivery.provider, body);
  const push = pushes.find((p) => p.ref === hook.ref);
  if (!push) return { reason: `a push to ${pushes.map((p) => p.ref).join(', ') || 'no branch'}, not to ${hook.ref}`, ref: pushes[0]?.ref };
  if (!push.after) return { reason: `${hook.ref} was deleted`, ref: push.ref };
  const queued = await deps.store.jobForCommit(hook.spaceId, push.after);
  if (queued) return { reason: `commit ${push.after} was already queued (job ${queued})`, ref: push.ref, commitOid: push.after };
  return { ref: push.ref, commitOid: push.after };
}

const presentLog = (r: LogRow): SyncLogEntry => ({
  id: r.id,
  direction: r.direction,
  trigger: r.trigger,
  ...emptyIfNull(r, 'userId', 'provider', 'deliveryId', 'ref', 'commitOid', 'reason', 'jobId'),
  result: r.result,
  pagesChanged: r.pagesChanged ?? 0,
  attempts: r.attempts,
  createdAt: r.createdAt,
  ...absentIfNull(r, 'startedAt', 'completedAt'),
});

/** Queues the import of a verified push's commit, acting for the member who set the webhook up. */
export async function queuePush(deps: Deps, ctx: CallContext, hook: WebhookRow, jobId: string, commitOid: string) {
  const actor: CallContext = { ...ctx, userId: hook.userId };
  const space = await deps.content.getSpace({ spaceId: hook.spaceId }, actor);
  if (!space.permissions?.triggerGitSync) throw new PermissionDeniedError(`The member the webhook acts for can no longer run Git sync on space "${hook.spaceId}"`);
  const credentials = hook.credentialsSealed ? unseal<Credentials>(hook.credentialsSealed, webhookCredentialsContext(hook.spaceId), deps.secretsKey) : undefined;
  const job = {
    id: jobId,
    userId: hook.userId,
    direction: 'import' as const,
    standalone: false,
    url: hook.url,
    ref: hook.ref,
    repoTreeUrl: hook.repoTreeUrl ?? undefined,
    repoCommitUrl: hook.repoCommitUrl ?? undefined,
    repoProjectDirectory: hook.repoProjectDirectory ?? undefined,
    force: false,
    timestamp: (deps.now ?? (() => new Date()))(),
    pushOid: commitOid,
  };
  await enqueue(deps, actor, space, job, linkInfo(hook.url, { repoTreeUrl: hook.repoTreeUrl ?? '' }), credentials);
}

export function webhookHandlers(deps: Deps): H {
  return {
    async setWebhook({ spaceId, repository, pollSeconds }, ctx) {
      const userId = callerOf(ctx);
      const { min, max } = GIT_SYNC.pollSeconds;
      if (pollSeconds !== 0 && (pollSeconds < min || pollSeconds > max)) throw new InvalidArgumentError(`pollSeconds: 0 (no polling) or from ${min} to ${max}`);
      const { remote, projectDirectory } = checkOptions(repository, deps.allowFileRemotes);
      const space = await deps.content.getSpace({ spaceId }, ctx);
      if (!space.permissions?.admin || !space.permissions.triggerGitSync) throw new PermissionDeniedError(`You cannot set up the Git webhook of space "${spaceId}"`);
      const secret = randomBytes(32).toString('hex');
      const o = repository!;
      await deps.store.setWebhook({
        spaceId: space.id,
        secretSealed: new Uint8Array(seal(secret, webhookSecretContext(space.id), deps.secretsKey)),
        credentialsSealed: remote.credentials ? new Uint8Array(seal(remote.credentials, webhookCredentialsContext(space.id), deps.secretsKey)) : null,
        userId,
        url: remote.url,
        ref: o.ref,
        repoTreeUrl: o.repoTreeUrl || null,
        repoCommitUrl: o.repoCommitUrl || null,
        repoProjectDirectory: projectDirectory || null,
        pollSeconds: pollSeconds || null,
      });
      return { secret, ref: o.ref };
    },

    async receiveWebhook({ spaceId, headers, body: raw }, ctx) {
      const body = Buffer.from(raw);
      if (body.length > GIT_SYNC.webhookBody.max) throw new InvalidArgumentError(`body: at most ${GIT_SYNC.webhookBody.max} bytes`);
      const hook = await deps.store.getWebhook(spaceId);
      if (!hook) throw new NotFoundError(`No Git webhook is set up on space "${spaceId}"`);
      const delivery = readDelivery(headers);
      const record = (d: Pick<NewDelivery, 'result' | 'reason' | 'ref' | 'commitOid' | 'jobId'>) =>
        deps.store.recordDelivery({ id: deps.newId(), spaceId, provider: delivery.provider, deliveryId: delivery.deliveryId, event: delivery.event, ...d });
      let secret: string;
      try {
        secret = unseal<string>(hook.secretSealed, webhookSecretContext(spaceId), deps.secretsKey);
      } catch (err) {
        ctx.log.error({ err, spaceId }, 'the webhook secret does not open');
        throw new DomainError(status.FAILED_PRECONDITION, 'failed_precondition', 'The webhook secret cannot be read by this server: set the webhook up again');
      }
      if (!verifyDelivery(delivery, body, secret)) {
        const reason = delivery.proof ? 'the signature does not match the webhook secret' : 'the delivery carries no signature';
        await record({ result: 'rejected', reason });
        throw new UnauthenticatedError(`${delivery.provider} webhook: ${reason}`);
      }
      const decision = await decide(deps, hook, delivery, body);
      const jobId = isPush(decision) ? deps.newId() : undefined;
      const taken = await record({ result: jobId ? 'queued' : 'ignored', reason: decision.reason, ref: decision.ref, commitOid: decision.commitOid, jobId });
      if (!taken) {
        const reason = `delivery ${delivery.deliveryId} was already received`;
        await record({ result: 'replayed', reason, ref: decision.ref, commitOid: decision.commitOid });
        return { result: 'ignored', reason, jobId: '' };
      }
      if (!jobId || !isPush(decision)) return { result: 'ignored', reason: decision.reason ?? '', jobId: '' };
      try {
        await queuePush(deps, ctx, hook, jobId, decision.commitOid);
      } catch (err) {
        // The host's redelivery of this id is then taken again.
        const reason = err instanceof DomainError || err instanceof Error ? err.message : 'the import could not be queued';
        await deps.store.deliveryFailed(jobId, reason.slice(0, 1000));
        throw err;
      }
      return { result: 'queued', reason: '', jobId };
    },

    async listSyncLog({ spaceId, page }, ctx) {
      callerOf(ctx);
      const space = await deps.content.getSpace({ spaceId }, ctx);
      const args = pageArgs(page);
      const { items, next } = pageOf(await deps.store.log(space.id, args.page), args.limit, logKey);
      return { items: items.map(presentLog), page: { next } };
    },
  };
}
