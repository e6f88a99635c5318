import type { OrgsServiceClient } from '@quire/proto/orgs';
import { callerOf, NotFoundError, type CallContext, type PromiseClient } from '@quire/service-kit';
import { allow } from '@quire/policy';
import type { EventPublisher } from '../ingest/publisher.ts';
import type { Store } from '../store/index.ts';

export interface Deps {
  store: Store;
  publisher: EventPublisher;
  orgs: PromiseClient<OrgsServiceClient>;
  /** The clock of ranges and default event times; tests replace it. */
  now: () => Date;
}

/**
 * Those who may view the site (@quire/policy's `site` table) may send its events and read
 * its aggregates and visitor segments; to anyone else, guests included, the site does not exist:
 * visitor claims are personal data. (The orgs client keeps answers briefly: a stream of event
 * batches costs one orgs call per caller and period, not one per request.)
 */
export async function requireMember(deps: Pick<Deps, 'orgs'>, organizationId: string, siteId: string, ctx: CallContext): Promise<void> {
  const { role } = await deps.orgs.getMembership({ organizationId, userId: callerOf(ctx) }, ctx);
  if (!allow(role, 'view', 'site')) throw new NotFoundError(`Site "${siteId}" not found`);
}
