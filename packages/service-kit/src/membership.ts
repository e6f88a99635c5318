import { Type } from '@sinclair/typebox';
import type { GetMembershipRequest, GetMembershipResponse, OrgsServiceClient } from '@quire/proto/orgs';
import type { Caller } from './context.js';
import type { PromiseClient } from './grpc.js';

/** How long a service trusts a membership it was told (`MEMBERSHIP_CACHE_MS`). */
export const membershipCacheField = Type.Integer({ minimum: 0, default: 2000 });

type Orgs = Pick<PromiseClient<OrgsServiceClient>, 'getMembership'>;

/**
 * orgs' GetMembership with answers kept `ttlMs`: the reads behind every call on a space or site
 * ask orgs once per member and period instead of once per call, and concurrent lookups share one
 * call. A role change or a removal takes effect within `ttlMs` (0 turns the cache off).
 */
export function cachedMemberships<O extends Orgs>(orgs: O, ttlMs: number, now: () => number = Date.now): O {
  if (ttlMs <= 0) return orgs;
  const cache = new Map<string, { answer: Promise<GetMembershipResponse>; until: number }>();
  function getMembership(req: GetMembershipRequest, caller: Caller): Promise<GetMembershipResponse> {
    const key = `${req.organizationId}\n${req.userId}`;
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.answer;
    if (cache.size >= 10_000) cache.clear();
    const answer = orgs.getMembership(req, caller);
    cache.set(key, { answer, until: now() + ttlMs });
    // A failed lookup is not remembered.
    answer.catch(() => cache.delete(key));
    return answer;
  }
  return { ...orgs, getMembership };
}
