import { FailedPreconditionError, NotFoundError, PermissionDeniedError, type CallContext } from '@quire/service-kit';
import { allow, Role } from '@quire/policy';
import type { BlobStore } from '../blobs/index.ts';
import type { SpaceRow } from '../store/index.ts';
import type { RevisionRow } from '../store/revisions.ts';
import { visibleSpace, type Deps } from './deps.ts';

export interface RevisionDeps extends Deps {
  blobs: BlobStore;
}

const revisionNotFound = (id: string, field = 'revision') => new NotFoundError(`${field}: revision "${id}" not found`);

/** Writes need `edit` on the space (change requests too, so a locked space still takes them). */
export function requireEdit(space: SpaceRow, role: Role) {
  if (!allow(role, 'writeContent', 'space')) throw new PermissionDeniedError(`Only editors of space "${space.id}" can change its content`);
}

/** Moving a space's revision is refused while it is locked. */
export function requireLive(space: SpaceRow) {
  if (space.editMode === 'locked') throw new FailedPreconditionError(`Space "${space.id}" is locked: its content cannot change`, 'space_locked');
}

/** A revision of the space (made in it, or its active one); the active one when `id` is empty. */
export async function revisionOf(deps: Deps, space: SpaceRow, id: string, field = 'revisionId', fetched?: Promise<RevisionRow | undefined>): Promise<RevisionRow> {
  const row = await (fetched ?? deps.store.revisions.getRevision(id || space.revisionId));
  if (!row || (row.spaceId !== space.id && row.id !== space.revisionId)) throw revisionNotFound(id, field);
  return row;
}

/**
 * The space and one of its revisions (the active one when `revisionId` is empty). A named
 * revision is read while the caller's access is checked, and shown only once it passed.
 */
export async function readRevision(deps: Deps, spaceId: string, revisionId: string, ctx: CallContext) {
  const early = revisionId ? deps.store.revisions.getRevision(revisionId) : undefined;
  early?.catch(() => undefined);
  const { space, role } = await visibleSpace(deps, spaceId, ctx);
  return { space, role, revision: await revisionOf(deps, space, revisionId, 'revisionId', early) };
}
