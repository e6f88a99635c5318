import { NotFoundError, PermissionDeniedError, Role } from '@quire/service-kit';
import type { Visibility } from './manifest.ts';

// Who may see and change an integration, by the caller's role in the owner organization
// (ROLE_UNSPECIFIED: not a member, or no caller at all).

const isMember = (role: Role) => role !== Role.ROLE_UNSPECIFIED;

/** Private integrations exist only for the owner organization's members. */
export function canView(visibility: Visibility, ownerRole: Role): boolean {
  return visibility !== 'private' || isMember(ownerRole);
}

/** Publishing into an organization: its admins only; to anyone else it does not exist. */
export function authorizePublisher(role: Role, organization: string): void {
  if (!isMember(role)) throw new NotFoundError(`organization: "${organization}" not found`);
  if (role !== Role.ROLE_ADMIN) throw new PermissionDeniedError(`organization: only admins of "${organization}" can publish integrations in it`);
}

/** Unpublishing (once `canView` holds): admins of the owner organization only. */
export function authorizeOwnerAdmin(role: Role, name: string): void {
  if (role !== Role.ROLE_ADMIN) throw new PermissionDeniedError(`Only admins of the organization that owns "${name}" can unpublish it`);
}

/** Anyone may install what is listed or unlisted; a private one, only its owner's admins. */
export function integrationPermissions(visibility: Visibility, ownerRole: Role): { admin: boolean; install: boolean } {
  const admin = ownerRole === Role.ROLE_ADMIN;
  return { admin, install: visibility !== 'private' || admin };
}
