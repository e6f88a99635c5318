import { Role } from '@quire/proto/common';

export { Role };

/** The API's role names, as GitBook's API spells them, strongest first. */
export const API_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type ApiRole = (typeof API_ROLES)[number];

const FROM_API: Record<ApiRole, Role> = {
  admin: Role.ROLE_ADMIN,
  create: Role.ROLE_CREATE,
  review: Role.ROLE_REVIEW,
  edit: Role.ROLE_EDIT,
  comment: Role.ROLE_COMMENT,
  read: Role.ROLE_READ,
};
const TO_API = Object.fromEntries(API_ROLES.map((r) => [FROM_API[r], r])) as Partial<Record<Role, ApiRole>>;

/** `null` is a guest (or no role at all). */
export function roleToApi(role: Role): ApiRole | null {
  return TO_API[role] ?? null;
}

export function roleFromApi(role: ApiRole | null): Role {
  return role === null ? Role.ROLE_GUEST : FROM_API[role];
}

/**
 * A role at all: GUEST or above. UNSPECIFIED is the proto's "none": no membership (or no caller)
 * for an organization role, no role given for a request's field.
 */
export function isRole(role: Role | undefined): role is Role {
  return role !== undefined && role !== Role.ROLE_UNSPECIFIED;
}

/** `role` when one is given, `fallback` otherwise. */
export const roleOr = (role: Role, fallback: Role): Role => (isRole(role) ? role : fallback);

// Weakest first: each role grants everything the ones before it grant. Only this package ranks roles.
const RANK: Record<Role, number> = {
  [Role.ROLE_UNSPECIFIED]: 0,
  [Role.ROLE_GUEST]: 1,
  [Role.ROLE_READ]: 2,
  [Role.ROLE_COMMENT]: 3,
  [Role.ROLE_EDIT]: 4,
  [Role.ROLE_REVIEW]: 5,
  [Role.ROLE_CREATE]: 6,
  [Role.ROLE_ADMIN]: 7,
};

/** True when `role` grants at least what `min` grants. */
export const atLeast = (role: Role, min: Role): boolean => RANK[role] >= RANK[min];

/** The stronger of two roles: an effective role is the strongest of what reaches the caller. */
export const strongest = (a: Role, b: Role): Role => (atLeast(a, b) ? a : b);
