import { NotFoundError, PermissionDeniedError } from '@quire/service-kit';
import { allow, isRole, type Action, type Role } from '@quire/policy';

/**
 * Refuses what the caller's org role does not allow (the rules are @quire/policy's). A caller with
 * no membership sees nothing (NOT_FOUND, so ids leak nothing); a member without the role gets
 * PERMISSION_DENIED.
 */
export function authorize(role: Role, action: Action<'organization'>, what = 'Organization'): void {
  if (!isRole(role)) throw new NotFoundError(`${what} not found`);
  if (!allow(role, action, 'organization')) throw new PermissionDeniedError(`Your role in this organization does not allow this (${action})`);
}
