import { ConflictError, Role, roleFromApi, roleToApi } from '@quire/service-kit';
import type { DbRole } from '../store/index.ts';

/** Stored roles are the API's names, `null` being a guest. */
export function roleFromDb(role: DbRole | null): Role {
  return roleFromApi(role);
}

export function roleToDb(role: Role): DbRole | null {
  return roleToApi(role);
}

/** A role given in a request: GUEST or a real role; UNSPECIFIED is not a role. */
export function isAssignable(role: Role | undefined): role is Role {
  return role !== undefined && role !== Role.ROLE_UNSPECIFIED;
}

/**
 * The organization must keep an admin: refuses a change of a member from `current` to `next`
 * (`'removed'` when leaving) that would leave none of its `admins`.
 */
export function keepAnAdmin(current: DbRole | null, next: DbRole | null | 'removed', admins: number): void {
  if (current === 'admin' && next !== 'admin' && admins <= 1) throw new ConflictError('The organization must keep at least one admin', 'last_admin');
}
