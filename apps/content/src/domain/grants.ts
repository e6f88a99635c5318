import { SPACE } from '@quire/proto/limits';
import { API_ROLES, InvalidArgumentError, PermissionDeniedError, Role, roleAtLeast } from '@quire/service-kit';
import { levelToRole, roleToLevel, type Level } from './access.ts';

// Grants (GitBook's space and collection permissions): who may hand them out, which roles, to whom.

export type PrincipalType = 'user' | 'team';
export interface Principal {
  type: PrincipalType;
  id: string;
}

/** The level a grant stores; null (the API's `null`, proto GUEST) removes the grant. */
export function grantLevel(role: Role): Exclude<Level, 'inherit' | 'guest'> | null {
  if (role === Role.ROLE_GUEST) return null;
  const level = roleToLevel(role);
  if (!level || level === 'inherit' || level === 'guest') throw new InvalidArgumentError(`role: must be one of ${API_ROLES.join(', ')} or null`);
  return level;
}

/** The principals of a grant, each once: at least one, at most SPACE.principals users and as many teams. */
export function grantPrincipals(userIds: string[], teamIds: string[]): Principal[] {
  if (userIds.length === 0 && teamIds.length === 0) throw new InvalidArgumentError('users, teams: at least one user or team is needed');
  const check = (field: string, ids: string[]) => {
    if (ids.length > SPACE.principals.max) throw new InvalidArgumentError(`${field}: at most ${SPACE.principals.max} ids (got ${ids.length})`);
    ids.forEach((id, i) => {
      if (id === '') throw new InvalidArgumentError(`${field}[${i}]: must not be empty`);
    });
    return [...new Set(ids)];
  };
  return [...check('users', userIds).map((id) => ({ type: 'user' as const, id })), ...check('teams', teamIds).map((id) => ({ type: 'team' as const, id }))];
}

/**
 * Only admins of an item manage its grants, and nobody grants more than it holds (so far the same
 * thing: an admin holds everything).
 */
export function authorizeGrant(held: Role, granted: Level | null, item: string): void {
  if (held !== Role.ROLE_ADMIN) throw new PermissionDeniedError(`Only admins of ${item} can manage its permissions`);
  if (granted !== null && !roleAtLeast(held, levelToRole(granted))) throw new PermissionDeniedError(`role: cannot grant more than your own role on ${item}`);
}

/** The first id of `ids` (under `field`) not in `known`, as the error naming it; nothing when all are known. */
export function checkKnown(field: string, ids: string[], known: Set<string>, what: 'a member' | 'a team'): void {
  const i = ids.findIndex((id) => !known.has(id));
  if (i >= 0) throw new InvalidArgumentError(`${field}[${i}]: "${ids[i]}" is not ${what} of the organization`);
}

/** Who may see or edit an item apart from its grants: the settings whose changes the audit log records. */
export const ACCESS_SETTINGS = ['defaultLevel', 'visibility'] as const;

/** The access settings `after` changed from `before`, each as `{from, to}`; null when none did. */
export function accessChanges(before: object, after: object): Record<string, { from: unknown; to: unknown }> | null {
  const [was, is] = [before as Record<string, unknown>, after as Record<string, unknown>];
  const changes = Object.fromEntries(ACCESS_SETTINGS.filter((k) => k in is && was[k] !== is[k]).map((k) => [k, { from: was[k], to: is[k] }]));
  return Object.keys(changes).length ? changes : null;
}
