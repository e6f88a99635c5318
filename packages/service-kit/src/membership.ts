import { Type } from '@sinclair/typebox';
import { LRUCache } from 'lru-cache';
import type { GetMembershipRequest, GetMembershipResponse, OrgsServiceClient } from '@quire/proto/orgs';
import { serviceUrlFields } from './config.js';
import type { Caller } from './context.js';
import type { PromiseClient } from './client.js';

/** The settings of a service that asks orgs for callers' memberships: where orgs is, and how long an answer is trusted. */
export const membershipFields = {
  ...serviceUrlFields('orgs'),
  MEMBERSHIP_CACHE_MS: Type.Integer({ minimum: 0, default: 2000 }),
};

type Orgs = Pick<PromiseClient<OrgsServiceClient>, 'getMembership'>;

/**
 * orgs' GetMembership with answers kept `ttlMs`: the reads behind every call on a space or site
 * ask orgs once per member and period instead of once per call, and concurrent lookups share one
 * call. An answer past half its life is asked anew in the background while callers keep using it,
 * so a member's calls made steadily never wait for orgs (when an answer simply ran out, the calls
 * of that moment all waited for the next). No answer is used past `ttlMs` from when it was asked:
 * a role change or a removal takes effect within `ttlMs` (0 turns the cache off).
 */
export function cachedMemberships<O extends Orgs>(orgs: O, ttlMs: number, now: () => number = Date.now): O {
  if (ttlMs <= 0) return orgs;
  type Entry = { answer: Promise<GetMembershipResponse>; renewAt: number; until: number };
  // The members asked of most recently: a full cache drops its least used, not all at once.
  const cache = new LRUCache<string, Entry>({ max: 10_000 });
  const ask = (req: GetMembershipRequest, caller: Caller): Entry => {
    const asked = now();
    return { answer: orgs.getMembership(req, caller), renewAt: asked + ttlMs / 2, until: asked + ttlMs };
  };
  function getMembership(req: GetMembershipRequest, caller: Caller): Promise<GetMembershipResponse> {
    const key = `${req.organizationId}\n${req.userId}`;
    const hit = cache.get(key);
    const t = now();
    if (hit && hit.until > t) {
      if (t >= hit.renewAt) {
        // One renewal per answer.
        hit.renewAt = Infinity;
        const next = ask(req, caller);
        // Kept once answered; a failed renewal leaves the answer in hand to run out.
        next.answer.then(
          () => cache.get(key) === hit && cache.set(key, next),
          () => undefined,
        );
      }
      return hit.answer;
    }
    const entry = ask(req, caller);
    cache.set(key, entry);
    // A failed lookup is not remembered.
    entry.answer.catch(() => cache.get(key) === entry && cache.delete(key));
    return entry.answer;
  }
  return { ...orgs, getMembership };
}
