import type { Collection, Space } from '@quire/proto/content';
import type { Role } from '@quire/service-kit';
import { collectionPermissions, levelToRole, spacePermissions } from './domain/access.ts';
import type { CollectionRow, SpaceRow } from './store/index.ts';

// Row to proto message, with the permissions of the caller's effective role.

export function presentCollection(r: CollectionRow, role: Role): Collection {
  return {
    id: r.id,
    organizationId: r.organizationId,
    parentId: r.parentId ?? undefined,
    title: r.title,
    description: r.description ?? undefined,
    defaultLevel: levelToRole(r.defaultLevel),
    permissions: collectionPermissions(role),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function presentSpace(r: SpaceRow, role: Role): Space {
  return {
    id: r.id,
    organizationId: r.organizationId,
    parentId: r.parentId ?? undefined,
    title: r.title,
    emoji: r.emoji,
    visibility: r.visibility,
    editMode: r.editMode,
    defaultLevel: levelToRole(r.defaultLevel),
    revisionId: r.revisionId,
    permissions: spacePermissions(role, r.editMode),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    deletedAt: r.deletedAt ?? undefined,
  };
}
