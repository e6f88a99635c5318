import { SPACE } from '@quire/proto/limits';
import { InvalidArgumentError, PermissionDeniedError } from '@quire/service-kit';
import { allow, API_ROLES, isRole, mayGrant, Role, roleFromApi, roleToApi, type ApiRole } from '@quire/policy';

// Grants (GitBook's space and collection permissions): who may hand them out, which roles, to whom.

export type PrincipalType = 'user' | 'team';
export interface Principal {
  type: PrincipalType;
  id: string;
}

/** The level a grant stores: a role's API name; null (the API's `null`, proto GUEST) removes the grant. */
export function grantLevel(role: Role): ApiRole | null {
  if (!isRole(role) || !Object.values(Role).includes(role)) throw new InvalidArgumentError(`role: must be one of ${API_ROLES.join(', ')} or null`);
  return roleToApi(role);
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

/** Refuses a change of the grants of a space or collection `id` that the role `held` there may not make. */
export function authorizeGrant(held: Role, granted: ApiRole | null, kind: 'space' | 'collection', id: string): void {
  const item = `${kind} "${id}"`;
  if (!allow(held, 'managePermissions', kind)) throw new PermissionDeniedError(`Only admins of ${item} can manage its permissions`);
  if (!mayGrant(held, roleFromApi(granted))) throw new PermissionDeniedError(`role: cannot grant more than your own role on ${item}`);
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
