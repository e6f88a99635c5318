import type { OrgsServiceClient } from '@quire/proto/orgs';
import { callerOf, NotFoundError, Role, type CallContext, type PromiseClient } from '@quire/service-kit';
import type { EventPublisher } from '../ingest/publisher.ts';
import type { Store } from '../store/index.ts';

export interface Deps {
  store: Store;
  publisher: EventPublisher;
  orgs: PromiseClient<OrgsServiceClient>;
  /** How long a membership answer is reused. */
  membershipCacheMs: number;
  /** The clock of ranges and default event times; tests replace it. */
  now: () => Date;
}

/**
 * Any member of the organization may send events and read aggregates; to anyone else the site
 * does not exist. Answers are kept `membershipCacheMs`: a batch of events costs one orgs call at
 * most per caller and period, not one per request.
 */
export function membershipCheck(deps: Pick<Deps, 'orgs' | 'membershipCacheMs'>) {
  const cache = new Map<string, { member: boolean; until: number }>();
  return async function requireMember(organizationId: string, siteId: string, ctx: CallContext): Promise<void> {
    const userId = callerOf(ctx);
    const key = `${organizationId}\n${userId}`;
    const now = Date.now();
    let hit = cache.get(key);
    if (!hit || hit.until <= now) {
      const { role } = await deps.orgs.getMembership({ organizationId, userId }, ctx);
      hit = { member: role !== Role.ROLE_UNSPECIFIED, until: now + deps.membershipCacheMs };
      if (cache.size > 10_000) cache.clear();
      cache.set(key, hit);
    }
    if (!hit.member) throw new NotFoundError(`Site "${siteId}" not found`);
  };
}
