import type { Collection as CollectionMsg, Position, Space as SpaceMsg, UserPermission } from '@quire/proto/content';
import type { User as UserMsg } from '@quire/proto/orgs';
import { isRole, Role, roleFromApi, roleToApi } from '@quire/policy';
import type { Static } from '@sinclair/typebox';
import type { Collection, DefaultLevel, InviteBody, MoveBody, Space, UserContentPermission } from '../schemas/content.ts';
import { presentGitSyncState } from './git.ts';
import { presentUser } from './orgs.ts';
import { flags } from './permissions.ts';
import { iso } from './time.ts';
import type { Urls } from './urls.ts';

// Proto message to the exact JSON of the reference, and request bodies to proto.

/** The proto's default level: UNSPECIFIED is `inherit`, GUEST `null`. */
export function defaultLevelToApi(role: Role): Static<typeof DefaultLevel> {
  return isRole(role) ? roleToApi(role) : 'inherit';
}

export function defaultLevelFromApi(level: Static<typeof DefaultLevel>): Role {
  return level === 'inherit' ? Role.ROLE_UNSPECIFIED : roleFromApi(level);
}

export function presentCollection(c: CollectionMsg, urls: Urls): Static<typeof Collection> {
  return {
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description !== undefined ? { description: c.description } : {}),
    organization: c.organizationId,
    ...(c.parentId !== undefined ? { parent: c.parentId } : {}),
    defaultLevel: defaultLevelToApi(c.defaultLevel),
    urls: { location: urls.api(`/collections/${c.id}`), app: urls.app(`/o/${c.organizationId}/c/${c.id}`) },
    permissions: flags(c.permissions, 'view', 'admin', 'viewInviteLinks', 'create'),
  };
}

/** A space with what content keeps of review's counters and git-sync's link (one call shows it all). */
export function presentSpace(s: SpaceMsg, urls: Urls): Static<typeof Space> {
  const counters = s.counters;
  return {
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility as Static<typeof Space>['visibility'],
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    ...(s.deletedAt ? { deletedAt: iso(s.deletedAt) } : {}),
    editMode: s.editMode as Static<typeof Space>['editMode'],
    organization: s.organizationId,
    ...(s.parentId !== undefined ? { parent: s.parentId } : {}),
    // Git-sync's link, for spaces that have one.
    ...(s.gitLink ? { gitSync: presentGitSyncState(s.gitLink) } : {}),
    revision: s.revisionId,
    defaultLevel: defaultLevelToApi(s.defaultLevel),
    // Counted by the review service.
    comments: counters?.comments ?? 0,
    changeRequests: counters?.changeRequests ?? 0,
    changeRequestsOpen: counters?.changeRequestsOpen ?? 0,
    changeRequestsDraft: counters?.changeRequestsDraft ?? 0,
    urls: { location: urls.api(`/spaces/${s.id}`), app: urls.app(`/o/${s.organizationId}/s/${s.id}`) },
    permissions: flags(s.permissions, 'view', 'access', 'admin', 'viewInviteLinks', 'edit', 'triggerGitSync', 'comment', 'merge', 'review'),
  };
}

type Pointer = NonNullable<NonNullable<Static<typeof MoveBody>['position']>['before']>;
const pointer = (p: Pointer) => ({ type: p.type, id: p.type === 'space' ? p.space : p.collection });

/** A move body as the content service takes it: `parent` present (even null) moves, absent keeps the parent. */
export function moveRequest(b: Static<typeof MoveBody>): { setParent: boolean; parentId?: string; position?: Position } {
  const { before, after } = b.position ?? {};
  return {
    setParent: b.parent !== undefined,
    parentId: b.parent ?? undefined,
    position: before ? { before: pointer(before) } : after ? { after: pointer(after) } : undefined,
  };
}

/** An invite body as the content service takes it. */
export function grantRequest(b: Static<typeof InviteBody>): { role: Role; userIds: string[]; teamIds: string[] } {
  return { role: roleFromApi(b.role), userIds: b.users ?? [], teamIds: b.teams ?? [] };
}

/** A user's grant, with the user as the orgs service shows it (only its id when it is gone). */
export function presentUserPermission(p: UserPermission, user: UserMsg | undefined, urls: Urls): Static<typeof UserContentPermission> {
  return {
    permission: roleToApi(p.role) ?? 'read',
    user: presentUser(user ?? { id: p.userId, displayName: '', email: '' }, urls),
  };
}
