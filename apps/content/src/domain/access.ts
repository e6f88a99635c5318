import { allow, isRole, Role, strongest } from '@quire/policy';

// Effective roles: the strongest of the explicit grants to the
// caller or its teams on the item and its ancestor collections, and what it inherits through the
// items' `defaultLevel` from its organization role. What each role may do is @quire/policy's.

/** A stored default level: `inherit` defers to the parent (up to the org role), `guest` gives nothing. */
export const LEVELS = ['inherit', 'guest', 'read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Level = (typeof LEVELS)[number];

const LEVEL_ROLES: Record<Level, Role> = {
  inherit: Role.ROLE_UNSPECIFIED,
  guest: Role.ROLE_GUEST,
  read: Role.ROLE_READ,
  comment: Role.ROLE_COMMENT,
  edit: Role.ROLE_EDIT,
  review: Role.ROLE_REVIEW,
  create: Role.ROLE_CREATE,
  admin: Role.ROLE_ADMIN,
};

/** The proto's default level: UNSPECIFIED is `inherit`, GUEST the API's `null`. */
export const levelToRole = (level: Level): Role => LEVEL_ROLES[level];
export const roleToLevel = (role: Role): Level | undefined => LEVELS.find((l) => LEVEL_ROLES[l] === role);

export interface CollectionNode {
  id: string;
  parentId: string | null;
  defaultLevel: Level;
}

export interface SpaceNode {
  id: string;
  parentId: string | null;
  defaultLevel: Level;
  visibility: string;
}

/** What decides the caller's roles on the content of one organization. */
export interface Access {
  /** UNSPECIFIED: not a member (or anonymous); GUEST: a guest. */
  orgRole: Role;
  collections: Map<string, CollectionNode>;
  /** The strongest grant to the caller or its teams, by item id. */
  collectionGrants: Map<string, Role>;
  spaceGrants: Map<string, Role>;
}

/** Ancestor collections from `parentId` up, stopping at a missing one (and at a cycle, which moves refuse). */
export function ancestors(collections: Map<string, CollectionNode>, parentId: string | null): CollectionNode[] {
  const chain: CollectionNode[] = [];
  for (let id = parentId; id !== null && chain.length <= collections.size;) {
    const c = collections.get(id);
    if (!c) break;
    chain.push(c);
    id = c.parentId;
  }
  return chain;
}

function inherited(access: Access, level: Level, parentId: string | null): Role {
  if (!allow(access.orgRole, 'inheritContent', 'organization')) return Role.ROLE_UNSPECIFIED;
  const explicit = [level, ...ancestors(access.collections, parentId).map((c) => c.defaultLevel)].find((l) => l !== 'inherit');
  if (explicit === undefined) return access.orgRole;
  return explicit === 'guest' ? Role.ROLE_UNSPECIFIED : levelToRole(explicit);
}

function granted(access: Access, own: Role | undefined, parentId: string | null): Role {
  // A grant counts only while its user belongs to the organization (it may have been transferred).
  if (!isRole(access.orgRole)) return Role.ROLE_UNSPECIFIED;
  return ancestors(access.collections, parentId).reduce((best, c) => strongest(best, access.collectionGrants.get(c.id) ?? Role.ROLE_UNSPECIFIED), own ?? Role.ROLE_UNSPECIFIED);
}

export function collectionRole(access: Access, c: CollectionNode): Role {
  if (allow(access.orgRole, 'adminContent', 'organization')) return Role.ROLE_ADMIN;
  return strongest(inherited(access, c.defaultLevel, c.parentId), granted(access, access.collectionGrants.get(c.id), c.parentId));
}

export function spaceRole(access: Access, s: SpaceNode): Role {
  if (allow(access.orgRole, 'adminContent', 'organization')) return Role.ROLE_ADMIN;
  // `in-collection`: whoever can access the parent collection can access the space, whatever its own level.
  const level = s.visibility === 'in-collection' ? 'inherit' : s.defaultLevel;
  const role = strongest(inherited(access, level, s.parentId), granted(access, access.spaceGrants.get(s.id), s.parentId));
  return s.visibility === 'public' || s.visibility === 'unlisted' ? strongest(role, Role.ROLE_READ) : role;
}

/**
 * The reader (the published sites' server), calling as itself, reads any space: it asks only for
 * the spaces of the sites it serves, after the sites service let the visitor in. Reading is all it gets.
 */
export const serviceRole = (readerAsItself: boolean): Role => (readerAsItself ? Role.ROLE_READ : Role.ROLE_UNSPECIFIED);

/** Collection `id` and every collection below it. */
export function subtree(collections: Map<string, CollectionNode>, id: string): string[] {
  return [...collections.values()].filter((c) => c.id === id || ancestors(collections, c.parentId).some((a) => a.id === id)).map((c) => c.id);
}
