import { NotFoundError, PermissionDeniedError } from '@quire/service-kit';
import { allow, isRole, type Role } from '@quire/policy';

// Refusals by the caller's role in an organization (ROLE_UNSPECIFIED: not a member, or no caller
// at all); the rules are @quire/policy's `integration` and `organization` tables.

/** Publishing into an organization: to a non-member it does not exist. */
export function authorizePublisher(role: Role, organization: string): void {
  if (!isRole(role)) throw new NotFoundError(`organization: "${organization}" not found`);
  if (!allow(role, 'publishIntegrations', 'organization')) throw new PermissionDeniedError(`organization: only admins of "${organization}" can publish integrations in it`);
}

/** Unpublishing (once the caller may view it): the owner organization's admins. */
export function authorizeOwnerAdmin(role: Role, name: string): void {
  if (!allow(role, 'admin', 'integration')) throw new PermissionDeniedError(`Only admins of the organization that owns "${name}" can unpublish it`);
}
