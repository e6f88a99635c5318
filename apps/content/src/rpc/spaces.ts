import type { ContentServiceServer } from '@quire/proto/content';
import { SortOrder } from '@quire/proto/common';
import { COMMON } from '@quire/proto/limits';
import { checkOneOf, ConflictError, InvalidArgumentError, NotFoundError, PermissionDeniedError, type CallContext, type Handlers } from '@quire/service-kit';
import { allow, isRole } from '@quire/policy';
import { spaceRole } from '../domain/access.ts';
import { checkDefaultLevel, checkEmoji, checkTitle, checkVisibility, copyTitle, DEFAULT_TITLE, EDIT_MODES, visibilityAtRoot } from '../domain/fields.ts';
import { purgeCutoff, restorable } from '../domain/lifecycle.ts';
import { accessChanges } from '../domain/grants.ts';
import { positionAmong } from '../domain/positions.ts';
import { presentOne, presentSpaces, viewableSpaces } from './copies.ts';
import type { SpaceRow } from '../store/index.ts';
import { authorizeParent, authorizeTransfer } from './collections.ts';
import { accessIn, accessOf, callerOf, memberAccessIn, spaceNotFound, visiblePage, visibleSpace, type Deps } from './deps.ts';

type H = Pick<
  Handlers<ContentServiceServer>,
  | 'createSpace'
  | 'listSpacesInOrganization'
  | 'listMemberSpaces'
  | 'getSpace'
  | 'updateSpace'
  | 'deleteSpace'
  | 'restoreSpace'
  | 'duplicateSpace'
  | 'moveSpace'
  | 'transferSpace'
  | 'batchGetSpaces'
  | 'purgeDeletedSpaces'
>;

export function spaceHandlers(deps: Deps): H {
  const { store } = deps;
  const now = deps.now ?? (() => new Date());

  async function administered(spaceId: string, ctx: CallContext, deleted = false) {
    callerOf(ctx);
    const found = await visibleSpace(deps, spaceId, ctx, deleted);
    if (!allow(found.role, 'admin', 'space')) throw new PermissionDeniedError(`Only admins of space "${spaceId}" can do this`);
    return found;
  }

  return {
    async createSpace(req, ctx) {
      callerOf(ctx);
      const parentId = req.parentId ?? null;
      const title = req.title ? checkTitle(req.title) : DEFAULT_TITLE;
      const emoji = checkEmoji(req.emoji);
      const editMode = checkOneOf('editMode', req.editMode || 'live', EDIT_MODES);
      const visibility = checkVisibility(req.visibility || 'private', parentId);
      const access = await memberAccessIn(deps, req.organizationId, ctx);
      authorizeParent(access, parentId, req.organizationId);
      const position = positionAmong(await store.siblings(req.organizationId, parentId), undefined);
      const row = await store.createSpace({ organizationId: req.organizationId, parentId, title, emoji, visibility, editMode, defaultLevel: 'inherit', position });
      return presentOne(deps, row, spaceRole(access, row), ctx.log);
    },

    async listSpacesInOrganization(req, ctx) {
      const access = await memberAccessIn(deps, req.organizationId, ctx);
      return viewableSpaces(deps, access, req.page, (page) => store.listSpacesInOrganization(req.organizationId, page), ctx.log);
    },

    async listMemberSpaces(req, ctx) {
      const caller = await memberAccessIn(deps, req.organizationId, ctx);
      if (!allow(caller.orgRole, 'listMemberSpaces', 'organization')) throw new PermissionDeniedError('Guests cannot list the spaces of members');
      const member = await accessOf(deps, req.organizationId, req.userId, ctx);
      if (!isRole(member.orgRole)) throw new NotFoundError(`Member "${req.userId}" not found`);
      const order = req.order === SortOrder.SORT_ORDER_ASC ? 'asc' : 'desc';
      const { items, next } = await visiblePage(
        req.page,
        (page) => store.listSpacesInOrganization(req.organizationId, page, order),
        (s) => allow(spaceRole(member, s), 'view', 'space') && allow(spaceRole(caller, s), 'view', 'space'),
      );
      const spaces = await presentSpaces(deps, items, (s) => spaceRole(caller, s), ctx.log);
      return { items: items.map((s, i) => ({ space: spaces[i], permission: spaceRole(member, s) })), page: { next } };
    },

    async getSpace({ spaceId }, ctx) {
      const { space: row, role } = await visibleSpace(deps, spaceId, ctx);
      return presentOne(deps, row, role, ctx.log);
    },

    async updateSpace(req, ctx) {
      callerOf(ctx);
      const title = req.title !== undefined ? checkTitle(req.title) : undefined;
      const emoji = req.emoji !== undefined ? checkEmoji(req.emoji) : undefined;
      const editMode = req.editMode !== undefined ? checkOneOf('editMode', req.editMode, EDIT_MODES) : undefined;
      const defaultLevel = req.defaultLevel !== undefined ? checkDefaultLevel(req.defaultLevel) : undefined;
      const { space: row, access, role } = await visibleSpace(deps, req.spaceId, ctx);
      const visibility = req.visibility !== undefined ? checkVisibility(req.visibility, row.parentId) : undefined;
      // Who may see the space and how it is edited are the admins' to set; its title and emoji, editors'.
      const settings = editMode ?? defaultLevel ?? visibility;
      if (settings !== undefined && !allow(role, 'admin', 'space'))
        throw new PermissionDeniedError(`Only admins of space "${row.id}" can change its editMode, defaultLevel or visibility`);
      if (!allow(role, 'update', 'space', { editMode: 'live' })) throw new PermissionDeniedError(`Only editors of space "${row.id}" can change it`);
      if (!allow(role, 'update', 'space', row)) throw new ConflictError(`editMode: space "${row.id}" is locked; only its admins can change it`);
      const updated = await store.updateSpace(row.id, { title, emoji, editMode, defaultLevel, visibility });
      const changes = accessChanges(row, updated);
      if (changes)
        await deps.events.emit(ctx, { entity: 'space', verb: 'permissions_changed', organizationId: row.organizationId, target: { type: 'space', id: row.id }, details: changes });
      return presentOne(deps, updated, spaceRole(access, updated), ctx.log);
    },

    async deleteSpace({ spaceId }, ctx) {
      await administered(spaceId, ctx);
      await store.setDeleted(spaceId, now());
      return {};
    },

    async restoreSpace({ spaceId }, ctx) {
      const current = await store.getSpace(spaceId);
      // Restoring a space that is not deleted changes nothing.
      if (current && current.deletedAt === null) {
        const { space: row, role } = await visibleSpace(deps, spaceId, ctx);
        return presentOne(deps, row, role, ctx.log);
      }
      const { space: row, access } = await administered(spaceId, ctx, true);
      if (!restorable(row.deletedAt!, now())) throw spaceNotFound(spaceId);
      const restored = await store.setDeleted(spaceId, null);
      return presentOne(deps, restored, spaceRole(access, restored), ctx.log);
    },

    async duplicateSpace({ spaceId }, ctx) {
      callerOf(ctx);
      const { space: row, access } = await visibleSpace(deps, spaceId, ctx);
      authorizeParent(access, row.parentId, row.organizationId);
      const position = positionAmong(await store.siblings(row.organizationId, row.parentId), { after: { type: 'space', id: row.id } });
      const copy: Omit<SpaceRow, 'id' | 'revisionId' | 'createdAt' | 'updatedAt' | 'deletedAt'> = { ...pick(row), title: copyTitle(row.title), position };
      const created = await store.createSpace(copy, row.revisionId);
      return presentOne(deps, created, spaceRole(access, created), ctx.log);
    },

    async moveSpace(req, ctx) {
      const { space: row, access } = await administered(req.spaceId, ctx);
      const parentId = req.setParent ? (req.parentId ?? null) : row.parentId;
      if (parentId !== row.parentId) authorizeParent(access, parentId, row.organizationId);
      const position = positionAmong(await store.siblings(row.organizationId, parentId), req.position, { type: 'space', id: row.id });
      const visibility = parentId === null ? visibilityAtRoot(row.visibility) : row.visibility;
      const moved = await store.placeSpace(row.id, { parentId, position, visibility });
      return presentOne(deps, moved, spaceRole(access, moved), ctx.log);
    },

    async transferSpace(req, ctx) {
      const { space: row, access, role } = await administered(req.spaceId, ctx);
      if (req.organizationId === row.organizationId) return presentOne(deps, row, role, ctx.log);
      const to = await authorizeTransfer(deps, access, req.organizationId, ctx);
      const position = positionAmong(await store.siblings(req.organizationId, null), undefined);
      const moved = await store.placeSpace(row.id, { organizationId: req.organizationId, parentId: null, position, visibility: visibilityAtRoot(row.visibility) });
      return presentOne(deps, moved, spaceRole(to, moved), ctx.log);
    },

    async batchGetSpaces({ spaceIds }, ctx) {
      if (spaceIds.length > COMMON.batchIds.max) throw new InvalidArgumentError(`spaceIds: at most ${COMMON.batchIds.max} ids (got ${spaceIds.length})`);
      const rows = spaceIds.length ? await store.getSpaces(spaceIds) : [];
      // One membership call per organization, not per space.
      const organizationIds = [...new Set(rows.map((r) => r.organizationId))];
      const accesses = new Map(await Promise.all(organizationIds.map(async (id) => [id, await accessIn(deps, id, ctx)] as const)));
      const byId = new Map(rows.map((r) => [r.id, r]));
      const roleOf = (row: SpaceRow) => spaceRole(accesses.get(row.organizationId)!, row);
      const shown = spaceIds.flatMap((id) => {
        const row = byId.get(id);
        return row && allow(roleOf(row), 'view', 'space') ? [row] : [];
      });
      return { spaces: await presentSpaces(deps, shown, roleOf, ctx.log) };
    },

    async purgeDeletedSpaces(req) {
      return { purged: await store.purgeDeletedSpaces(purgeCutoff(req.now ?? now())) };
    },
  };
}

/** What a duplicate keeps of its original. */
function pick(r: SpaceRow) {
  return {
    organizationId: r.organizationId,
    parentId: r.parentId,
    title: r.title,
    emoji: r.emoji,
    visibility: r.visibility,
    editMode: r.editMode,
    defaultLevel: r.defaultLevel,
    position: r.position,
  };
}
