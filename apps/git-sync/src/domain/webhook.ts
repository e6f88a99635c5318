import { createHmac, timingSafeEqual } from 'node:crypto';
import { GIT_SYNC } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';

/** The Git hosts whose push webhooks are understood, each known by the headers it sends. */
export type Provider = 'github' | 'gitlab' | 'gitea' | 'forgejo' | 'bitbucket';

/** A delivery's headers that matter, read (names in lower case) and bounded. */
export interface Delivery {
  provider: Provider;
  /** The host's id of this delivery: a redelivery of it carries the same. */
  deliveryId: string;
  event: string;
  /** Whether the event is a push (other events, such as a ping, are answered and ignored). */
  isPush: boolean;
  /** The signature (hex HMAC-SHA256 of the body) or GitLab's token, as sent. */
  proof: string;
}

const header = (headers: Record<string, string>, name: string): string => {
  const value = headers[name] ?? '';
  if (value.length > GIT_SYNC.webhookHeader.max) throw new InvalidArgumentError(`${name}: at most ${GIT_SYNC.webhookHeader.max} characters`);
  return value;
};

/**
 * Which host sent the delivery, from its headers. Gitea and Forgejo also send GitHub's headers,
 * so theirs are looked at first; Bitbucket sends `X-Hub-Signature` with `X-Event-Key`.
 */
export function readDelivery(headers: Record<string, string>): Delivery {
  const h = (name: string) => header(headers, name);
  const read = (provider: Provider, deliveryId: string, event: string, isPush: boolean, proof: string): Delivery => {
    if (!deliveryId) throw new InvalidArgumentError(`${provider}: the delivery id header is missing`);
    return { provider, deliveryId, event, isPush, proof };
  };
  if (h('x-forgejo-event')) return read('forgejo', h('x-forgejo-delivery'), h('x-forgejo-event'), h('x-forgejo-event') === 'push', h('x-forgejo-signature'));
  if (h('x-gitea-event')) return read('gitea', h('x-gitea-delivery'), h('x-gitea-event'), h('x-gitea-event') === 'push', h('x-gitea-signature'));
  if (h('x-gitlab-event')) return read('gitlab', h('x-gitlab-event-uuid'), h('x-gitlab-event'), h('x-gitlab-event') === 'Push Hook', h('x-gitlab-token'));
  if (h('x-event-key')) return read('bitbucket', h('x-request-uuid'), h('x-event-key'), h('x-event-key') === 'repo:push', stripSha256(h('x-hub-signature')));
  if (h('x-github-event')) return read('github', h('x-github-delivery'), h('x-github-event'), h('x-github-event') === 'push', stripSha256(h('x-hub-signature-256')));
  throw new InvalidArgumentError('not a push webhook of GitHub, GitLab, Gitea, Forgejo or Bitbucket (no event header)');
}

const stripSha256 = (value: string) => (value.startsWith('sha256=') ? value.slice('sha256='.length) : '');

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * Whether the delivery was made with `secret`: GitLab sends the secret itself (compared in
 * constant time, through digests of equal length), the others an HMAC-SHA256 of the body in hex.
 */
export function verifyDelivery(delivery: Delivery, body: Buffer, secret: string): boolean {
  if (!delivery.proof) return false;
  if (delivery.provider === 'gitlab') {
    const digest = (v: string) => createHmac('sha256', 'gitlab-token').update(v).digest();
    return sameBytes(digest(delivery.proof), digest(secret));
  }
  if (!/^[0-9a-f]{64}$/i.test(delivery.proof)) return false;
  return sameBytes(Buffer.from(delivery.proof, 'hex'), createHmac('sha256', secret).update(body).digest());
}

/** What a push changed on one branch or tag: the full ref and the commit it now names (none when deleted). */
export interface Push {
  ref: string;
  after?: string;
}

const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const ZERO = /^0+$/;

const commitOf = (oid: unknown) => (typeof oid === 'string' && OID.test(oid) && !ZERO.test(oid) ? oid : undefined);

/** The pushes a verified body describes: one ref for GitHub, GitLab, Gitea and Forgejo, one per change for Bitbucket. */
export function readPushes(provider: Provider, body: Buffer): Push[] {
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    throw new InvalidArgumentError('body: must be the JSON of a push event');
  }
  if (typeof payload !== 'object' || payload === null) throw new InvalidArgumentError('body: must be the JSON of a push event');
  if (provider === 'bitbucket') return bitbucketPushes(payload);
  const { ref, after } = payload as { ref?: unknown; after?: unknown };
  if (typeof ref !== 'string') throw new InvalidArgumentError('body: a push event names its ref');
  return [{ ref, after: commitOf(after) }];
}

interface BitbucketChange {
  new?: { type?: string; name?: string; target?: { hash?: string } } | null;
  old?: { type?: string; name?: string } | null;
}

function bitbucketPushes(payload: object): Push[] {
  const changes = (payload as { push?: { changes?: BitbucketChange[] } }).push?.changes;
  if (!Array.isArray(changes)) throw new InvalidArgumentError('body: a repo:push event lists its changes');
  return changes.flatMap((c): Push[] => {
    const side = c.new ?? c.old;
    if (!side?.name) return [];
    const kind = side.type === 'tag' ? 'tags' : 'heads';
    return [{ ref: `refs/${kind}/${side.name}`, after: commitOf(c.new?.target?.hash) }];
  });
}
