import { Role, roleFromApi, roleToApi } from '@quire/service-kit';
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
