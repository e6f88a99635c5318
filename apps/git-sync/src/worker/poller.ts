import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@quire/service-kit';
import { unseal } from '@quire/service-kit/sealed';
import { webhookCredentialsContext, type Credentials } from '../domain/sealed.ts';
import type { Deps } from '../rpc/deps.ts';
import { queuePush } from '../rpc/webhooks.ts';
import type { WebhookRow } from '../store/webhooks.ts';
import { pinnedTarget } from './git.ts';
import { remoteRef } from './repository.ts';

// Links polled per tick by one replica: the others take the next ones (SKIP LOCKED).
const POLLS_PER_TICK = 10;
const LS_REMOTE_MS = 30_000;

/**
 * Looks at one link's branch on the remote: a commit there that is neither the last one
 * synced nor already queued is imported as a push of it would be (the job skips one older than the space's).
 */
async function poll(deps: Deps, hook: WebhookRow, log: Logger): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-poll-'));
  try {
    const credentials = hook.credentialsSealed ? unseal<Credentials>(hook.credentialsSealed, webhookCredentialsContext(hook.spaceId), deps.secretsKey) : undefined;
    const target = await pinnedTarget(hook.url, credentials, deps);
    const oid = await remoteRef(dir, target, hook.ref, Date.now() + LS_REMOTE_MS);
    if (!oid) return;
    const last = (await deps.store.lastSync(hook.spaceId))?.commitOid;
    if (oid === last || (await deps.store.jobForCommit(hook.spaceId, oid))) return;
    const jobId = deps.newId();
    // One poll finding a commit is one delivery of it: a second replica's poll of it is a replay.
    const taken = await deps.store.recordDelivery({
      id: deps.newId(),
      spaceId: hook.spaceId,
      provider: 'poll',
      deliveryId: oid,
      event: 'poll',
      ref: hook.ref,
      commitOid: oid,
      result: 'queued',
      jobId,
    });
    if (!taken) return;
    await queuePush(deps, { userId: hook.userId, chain: [], requestId: `git-poll-${jobId}`, log }, hook, jobId, oid).catch(async (err: unknown) => {
      await deps.store.deliveryFailed(jobId, (err as Error).message.slice(0, 1000));
      throw err;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Polls the links that poll, every `tickMs`, each when its interval is over; `stop()` ends it. */
export function startPoller(deps: Deps, tickMs: number, log: Logger): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      for (const hook of await deps.store.duePolls(POLLS_PER_TICK)) {
        await poll(deps, hook, log).catch((err: unknown) => log.warn({ err, spaceId: hook.spaceId }, 'polling a Git repository failed'));
      }
    } catch (err) {
      log.warn({ err }, 'reading the Git links due a poll failed');
    }
  };
  const timer = setInterval(() => {
    running = running.then(tick);
  }, tickMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
