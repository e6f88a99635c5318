import { status } from '@grpc/grpc-js';
import type { OrgsServiceClient } from '@quire/proto/orgs';
import { isServiceError, NotFoundError, type CallContext, type PromiseClient } from '@quire/service-kit';
import { Role } from '@quire/policy';
import type { SealingKeys } from '@quire/service-kit/sealed';
import type { Store } from '../store/index.ts';

export interface Deps {
  store: Store;
  orgs: PromiseClient<OrgsServiceClient>;
  /** AES-256-GCM keys of the integrations' secrets: the current one seals, previous ones still open. */
  secretsKey: SealingKeys;
}

export { callerOf, pageArgs } from '@quire/service-kit';

/** Organization id for an id or a subdomain; NOT_FOUND naming the field when orgs knows neither. */
export async function resolveOrganization(orgs: Deps['orgs'], idOrHostname: string, ctx: CallContext): Promise<string> {
  try {
    return (await orgs.resolveOrganization({ idOrHostname }, ctx)).organizationId;
  } catch (err) {
    if (isServiceError(err) && err.code === status.NOT_FOUND) throw new NotFoundError(`organization: "${idOrHostname}" not found`);
    throw err;
  }
}

/** The caller's role in each organization (UNSPECIFIED when not a member or anonymous), in one call. */
export async function rolesIn(orgs: Deps['orgs'], organizationIds: string[], ctx: CallContext): Promise<Map<string, Role>> {
  const ids = [...new Set(organizationIds)];
  const { roles } = ctx.userId && ids.length ? await orgs.batchGetMemberships({ userId: ctx.userId, organizationIds: ids }, ctx) : { roles: {} };
  return new Map(ids.map((id) => [id, roles[id] ?? Role.ROLE_UNSPECIFIED]));
}
