import { ConflictError } from '@quire/service-kit';
import { roleFromApi, roleToApi, type Role } from '@quire/policy';
import type { DbRole } from '../store/index.ts';

/** Stored roles are the API's names, `null` being a guest. */
export function roleFromDb(role: DbRole | null): Role {
  return roleFromApi(role);
}

export function roleToDb(role: Role): DbRole | null {
  return roleToApi(role);
}

/**
 * The organization must keep an admin: refuses a change of a member from `current` to `next`
 * (`'removed'` when leaving) that would leave none of its `admins`.
 */
export function keepAnAdmin(current: DbRole | null, next: DbRole | null | 'removed', admins: number): void {
  if (current === 'admin' && next !== 'admin' && admins <= 1) throw new ConflictError('The organization must keep at least one admin', 'last_admin');
}
