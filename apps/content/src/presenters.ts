import type { Collection, Space } from '@quire/proto/content';
import type { OpenApiSpec, OpenApiSpecVersion } from '@quire/proto/openapi';
import { collectionPermissions, spacePermissions, type Role } from '@quire/policy';
import { levelToRole } from './domain/access.ts';
import type { CopyRow } from './store/copies.ts';
import type { CollectionRow, SpaceRow } from './store/index.ts';
import type { OpenApiSpecRow, OpenApiVersionRow } from './store/openapi.ts';

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

/** The space with its copies from other services (`copy`; zeros and no link when none is known). */
export function presentSpace(r: SpaceRow, role: Role, copy: CopyRow | null | undefined = r.copy): Space {
  const link = copy?.gitLink;
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
    permissions: spacePermissions(role, r),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    deletedAt: r.deletedAt ?? undefined,
    counters: {
      spaceId: r.id,
      version: copy?.countersVersion ?? 0,
      comments: copy?.comments ?? 0,
      changeRequests: copy?.changeRequests ?? 0,
      changeRequestsOpen: copy?.changeRequestsOpen ?? 0,
      changeRequestsDraft: copy?.changeRequestsDraft ?? 0,
    },
    gitLink: link ? { spaceId: r.id, version: copy?.gitVersion ?? 0, ...link, updatedAt: new Date(link.updatedAt) } : undefined,
  };
}

export function presentOpenApiSpec(r: OpenApiSpecRow, editable: boolean): OpenApiSpec {
  return {
    id: r.id,
    organizationId: r.organizationId,
    slug: r.slug,
    sourceUrl: r.sourceUrl ?? '',
    visibility: r.visibility,
    lastVersionId: r.lastVersionId ?? '',
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastProcessedAt: r.lastProcessedAt ?? undefined,
    lastProcessErrorCode: r.lastProcessErrorCode ?? '',
    editable,
  };
}

export function presentOpenApiVersion(r: OpenApiVersionRow): OpenApiSpecVersion {
  return { id: r.id, specId: r.specId, createdAt: r.createdAt, sourceUrl: r.sourceUrl ?? '', version: r.version };
}
