import type { ContentServiceServer } from '@quire/proto/content';
import { InvalidArgumentError, PermissionDeniedError, type CallContext, type Handlers } from '@quire/service-kit';
import { allow, Role } from '@quire/policy';
import { ancestors, collectionRole, subtree, type Access } from '../domain/access.ts';
import { checkDefaultLevel, checkDescription, checkTitle, DEFAULT_TITLE } from '../domain/fields.ts';
import { accessChanges } from '../domain/grants.ts';
import { positionAmong } from '../domain/positions.ts';
import { presentCollection } from '../presenters.ts';
import { viewableSpaces } from './copies.ts';
import type { CollectionRow } from '../store/index.ts';
import { callerOf, collectionNotFound, memberAccessIn, visibleCollection, visiblePage, type Deps } from './deps.ts';

type H = Pick<
  Handlers<ContentServiceServer>,
  'createCollection' | 'listCollections' | 'getCollection' | 'updateCollection' | 'deleteCollection' | 'listSpacesInCollection' | 'moveCollection' | 'transferCollection'
>;

/** Where a new or moved item may go: the root to org members at `create` and above, a collection to those who may create in it. */
export function authorizeParent(access: Access, parentId: string | null, organizationId: string): void {
  if (parentId === null) {
    if (!allow(access.orgRole, 'createContent', 'organization')) throw new PermissionDeniedError(`organization: creating at the root of "${organizationId}" needs the create role`);
    return;
  }
  const parent = access.collections.get(parentId);
  const role = parent ? collectionRole(access, parent) : Role.ROLE_UNSPECIFIED;
  if (!parent || !allow(role, 'view', 'collection')) throw collectionNotFound(parentId, 'parent');
  if (!allow(role, 'create', 'collection')) throw new PermissionDeniedError(`parent: creating in collection "${parentId}" needs the create role on it`);
}

/** Transfers need admins of both organizations; to others the target does not exist. */
export async function authorizeTransfer(deps: Deps, from: Access, organizationId: string, ctx: CallContext): Promise<Access> {
  if (!allow(from.orgRole, 'transferContent', 'organization')) throw new PermissionDeniedError('Only admins of the organization can transfer its content');
  const to = await memberAccessIn(deps, organizationId, ctx);
  if (!allow(to.orgRole, 'transferContent', 'organization')) throw new PermissionDeniedError(`organization: only admins of "${organizationId}" can transfer content into it`);
  return to;
}

export function collectionHandlers(deps: Deps): H {
  const { store } = deps;

  /** The collection, the caller's access to its organization and role on it; NOT_FOUND when it cannot see it. */
  async function administered(collectionId: string, ctx: CallContext) {
    callerOf(ctx);
    const found = await visibleCollection(deps, collectionId, ctx);
    if (!allow(found.role, 'admin', 'collection')) throw new PermissionDeniedError(`Only admins of collection "${collectionId}" can change it`);
    return found;
  }

  return {
    async createCollection(req, ctx) {
      callerOf(ctx);
      const title = req.title ? checkTitle(req.title) : DEFAULT_TITLE;
      const access = await memberAccessIn(deps, req.organizationId, ctx);
      const parentId = req.parentId ?? null;
      authorizeParent(access, parentId, req.organizationId);
      const position = positionAmong(await store.siblings(req.organizationId, parentId), undefined);
      const row = await store.createCollection({ organizationId: req.organizationId, parentId, title, position });
      return presentCollection(row, collectionRole({ ...access, collections: new Map(access.collections).set(row.id, row) }, row));
    },

    async listCollections(req, ctx) {
      const access = await memberAccessIn(deps, req.organizationId, ctx);
      const role = (c: CollectionRow) => collectionRole(access, c);
      const { items, next } = await visiblePage(
        req.page,
        (page) => store.listCollections(req.organizationId, req.nested ?? true, page),
        (c) => allow(role(c), 'view', 'collection'),
      );
      return { items: items.map((c) => presentCollection(c, role(c))), page: { next } };
    },

    async getCollection({ collectionId }, ctx) {
      const { collection: row, role } = await visibleCollection(deps, collectionId, ctx);
      return presentCollection(row, role);
    },

    async updateCollection(req, ctx) {
      const title = req.title !== undefined ? checkTitle(req.title) : undefined;
      const description = req.description !== undefined ? checkDescription(req.description) || null : undefined;
      const defaultLevel = req.defaultLevel !== undefined ? checkDefaultLevel(req.defaultLevel) : undefined;
      const { access, collection: before } = await administered(req.collectionId, ctx);
      const row = await store.updateCollection(req.collectionId, { title, description, defaultLevel });
      const changes = accessChanges(before, row);
      if (changes)
        await deps.events.emit(ctx, {
          entity: 'collection',
          verb: 'permissions_changed',
          organizationId: row.organizationId,
          target: { type: 'collection', id: row.id },
          details: changes,
        });
      return presentCollection(row, collectionRole(access, row));
    },

    async deleteCollection({ collectionId }, ctx) {
      const { collection: row } = await administered(collectionId, ctx);
      await store.deleteCollection(row);
      return {};
    },

    async listSpacesInCollection(req, ctx) {
      const { access } = await visibleCollection(deps, req.collectionId, ctx);
      return viewableSpaces(deps, access, req.page, (page) => store.listSpacesInCollection(req.collectionId, page), ctx.log);
    },

    async moveCollection(req, ctx) {
      const { collection: row, access } = await administered(req.collectionId, ctx);
      const parentId = req.setParent ? (req.parentId ?? null) : row.parentId;
      if (parentId !== row.parentId) {
        if (parentId === row.id || ancestors(access.collections, parentId).some((c) => c.id === row.id)) {
          throw new InvalidArgumentError('parent: a collection cannot move into itself or one of its sub-collections');
        }
        authorizeParent(access, parentId, row.organizationId);
      }
      const position = positionAmong(await store.siblings(row.organizationId, parentId), req.position, { type: 'collection', id: row.id });
      const moved = await store.moveCollection(row.id, parentId, position);
      return presentCollection(moved, collectionRole({ ...access, collections: new Map(access.collections).set(moved.id, moved) }, moved));
    },

    async transferCollection(req, ctx) {
      const { collection: row, access } = await administered(req.collectionId, ctx);
      if (req.organizationId === row.organizationId) return presentCollection(row, Role.ROLE_ADMIN);
      await authorizeTransfer(deps, access, req.organizationId, ctx);
      const position = positionAmong(await store.siblings(req.organizationId, null), undefined);
      const moved = await store.transferCollections(row.id, subtree(access.collections, row.id), req.organizationId, position);
      return presentCollection(moved, Role.ROLE_ADMIN);
    },
  };
}
