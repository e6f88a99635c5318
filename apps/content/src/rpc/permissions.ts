import type { ContentServiceServer } from '@quire/proto/content';
import { NotFoundError, pageArgs, pageOf, type CallContext, type Handlers } from '@quire/service-kit';
import type { ApiRole, Role } from '@quire/policy';
import { levelToRole } from '../domain/access.ts';
import { authorizeGrant, checkKnown, grantLevel, grantPrincipals } from '../domain/grants.ts';
import { callerOf, visibleCollection, visibleSpace, type Deps } from './deps.ts';

type H = Pick<
  Handlers<ContentServiceServer>,
  'grantSpacePermissions' | 'listSpaceUserPermissions' | 'updateSpaceUserPermission' | 'removeSpaceUserPermission' | 'grantCollectionPermissions'
>;

export function permissionHandlers(deps: Deps): H {
  const { store, orgs, events } = deps;

  /** The audit log's record of a permission change: who gets which level (null: none) on what. */
  const changed = (ctx: CallContext, kind: 'space' | 'collection', organizationId: string, id: string, details: Record<string, unknown>) =>
    events.emit(ctx, { entity: kind, verb: 'permissions_changed', organizationId, target: { type: kind, id }, details });

  /** INVALID_ARGUMENT naming the first user that is not a member of the organization, or team that is not one of its teams. */
  async function checkPrincipalsIn(organizationId: string, userIds: string[], teamIds: string[], ctx: CallContext): Promise<void> {
    const found = await orgs.filterPrincipals({ organizationId, userIds: [...new Set(userIds)], teamIds: [...new Set(teamIds)] }, ctx);
    checkKnown('users', userIds, new Set(found.userIds), 'a member');
    checkKnown('teams', teamIds, new Set(found.teamIds), 'a team');
  }

  async function grant(kind: 'space' | 'collection', req: { role: Role; userIds: string[]; teamIds: string[] }, itemId: string, ctx: CallContext) {
    callerOf(ctx);
    const level = grantLevel(req.role);
    const principals = grantPrincipals(req.userIds, req.teamIds);
    const found = kind === 'space' ? await visibleSpace(deps, itemId, ctx) : await visibleCollection(deps, itemId, ctx);
    const { organizationId } = 'space' in found ? found.space : found.collection;
    const { role } = found;
    authorizeGrant(role, level, kind, itemId);
    await checkPrincipalsIn(organizationId, req.userIds, req.teamIds, ctx);
    await store.setGrants(kind, itemId, principals, level);
    await changed(ctx, kind, organizationId, itemId, { userIds: req.userIds, teamIds: req.teamIds, role: level });
  }

  /** The space the caller administers, for the changes of one user's grant. */
  async function administeredSpace(spaceId: string, level: ApiRole | null, ctx: CallContext) {
    callerOf(ctx);
    const { space: row, role } = await visibleSpace(deps, spaceId, ctx);
    authorizeGrant(role, level, 'space', spaceId);
    return row;
  }

  const noGrant = (spaceId: string, userId: string) => new NotFoundError(`user: "${userId}" has no permission on space "${spaceId}"`);

  return {
    async grantSpacePermissions(req, ctx) {
      await grant('space', req, req.spaceId, ctx);
      return {};
    },

    async grantCollectionPermissions(req, ctx) {
      await grant('collection', req, req.collectionId, ctx);
      return {};
    },

    async listSpaceUserPermissions(req, ctx) {
      const { limit, page } = pageArgs(req.page);
      await visibleSpace(deps, req.spaceId, ctx);
      const { items, next } = pageOf(await store.listSpaceUserGrants(req.spaceId, page), limit, (g) => g.userId);
      return { items: items.map((g) => ({ userId: g.userId, role: levelToRole(g.role) })), page: { next } };
    },

    async updateSpaceUserPermission(req, ctx) {
      const level = grantLevel(req.role);
      const space = await administeredSpace(req.spaceId, level, ctx);
      const found = level === null ? await store.removeSpaceUserGrant(req.spaceId, req.userId) : await store.updateSpaceUserGrant(req.spaceId, req.userId, level);
      if (!found) throw noGrant(req.spaceId, req.userId);
      await changed(ctx, 'space', space.organizationId, space.id, { userIds: [req.userId], role: level });
      return {};
    },

    async removeSpaceUserPermission(req, ctx) {
      const space = await administeredSpace(req.spaceId, null, ctx);
      const removed = await store.removeSpaceUserGrant(req.spaceId, req.userId);
      if (removed) await changed(ctx, 'space', space.organizationId, space.id, { userIds: [req.userId], role: null });
      return { removed };
    },
  };
}
