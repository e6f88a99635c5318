import { Role } from '@quire/proto/common';

export { Role };

/** The API's role names, as GitBook's API spells them, strongest first. */
export const API_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type ApiRole = (typeof API_ROLES)[number];

const TO_API: Partial<Record<Role, ApiRole>> = {
  [Role.ROLE_ADMIN]: 'admin',
  [Role.ROLE_CREATE]: 'create',
  [Role.ROLE_REVIEW]: 'review',
  [Role.ROLE_EDIT]: 'edit',
  [Role.ROLE_COMMENT]: 'comment',
  [Role.ROLE_READ]: 'read',
};
const FROM_API: Record<ApiRole, Role> = {
  admin: Role.ROLE_ADMIN,
  create: Role.ROLE_CREATE,
  review: Role.ROLE_REVIEW,
  edit: Role.ROLE_EDIT,
  comment: Role.ROLE_COMMENT,
  read: Role.ROLE_READ,
};
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

/** `null` is a guest (or no role at all). */
export function roleToApi(role: Role): ApiRole | null {
  return TO_API[role] ?? null;
}

export function roleFromApi(role: ApiRole | null): Role {
  return role === null ? Role.ROLE_GUEST : FROM_API[role];
}

/** True when `role` grants at least what `min` grants. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min];
}
