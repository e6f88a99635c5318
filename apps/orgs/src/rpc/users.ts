import type { OrgsServiceServer } from '@quire/proto/orgs';
import { COMMON } from '@quire/proto/limits';
import { callsAsItself, InvalidArgumentError, NotFoundError, type Handlers } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { roleFromDb } from '../domain/roles.ts';
import { presentPublicUser, presentUser } from '../presenters.ts';
import { callerOf, type Deps } from './deps.ts';

type H = Handlers<OrgsServiceServer>;

export function userHandlers({ store }: Deps): Pick<H, 'getMembership' | 'batchGetMemberships' | 'filterPrincipals' | 'batchGetUsers' | 'getCurrentUser' | 'getUser'> {
  return {
    async getMembership({ organizationId, userId }) {
      const m = await store.membership(organizationId, userId);
      return m ? { role: roleFromDb(m.role), teamIds: m.teamIds } : { role: Role.ROLE_UNSPECIFIED, teamIds: [] };
    },

    async batchGetMemberships({ userId, organizationIds }) {
      if (organizationIds.length > COMMON.batchIds.max) throw new InvalidArgumentError(`organizationIds: at most ${COMMON.batchIds.max}`);
      const rows = organizationIds.length && userId ? await store.membershipsOf(userId, organizationIds) : [];
      return { roles: Object.fromEntries(rows.map((m) => [m.organizationId, roleFromDb(m.role)])) };
    },

    async filterPrincipals({ organizationId, userIds, teamIds }) {
      if (userIds.length > COMMON.batchIds.max || teamIds.length > COMMON.batchIds.max) throw new InvalidArgumentError(`userIds, teamIds: at most ${COMMON.batchIds.max} each`);
      return store.principalsIn(organizationId, userIds, teamIds);
    },

    async batchGetUsers({ userIds, organizationId }, ctx) {
      if (userIds.length > COMMON.batchIds.max) throw new InvalidArgumentError(`userIds: at most ${COMMON.batchIds.max}`);
      // The reader has no caller: a published page's mentions show the names of the site's
      // organization's members, which its visitors may see, and nothing else of them.
      const reader = callsAsItself(ctx, 'reader');
      if (reader && !organizationId) throw new InvalidArgumentError('organizationId: the reader names the members of one organization');
      const rows = !userIds.length ? [] : reader ? await store.membersAmong(organizationId, userIds) : await store.usersVisibleTo(userIds, callerOf(ctx));
      const byId = new Map(rows.map((u) => [u.id, u]));
      const present = reader ? presentPublicUser : presentUser;
      return { users: userIds.flatMap((id) => (byId.has(id) ? [present(byId.get(id)!)] : [])) };
    },

    async getCurrentUser(_req, ctx) {
      const user = await store.getUser(callerOf(ctx));
      if (!user) throw new NotFoundError('User not found');
      return presentUser(user);
    },

    async getUser({ userId }, ctx) {
      const user = await store.userVisibleTo(userId, callerOf(ctx));
      if (!user) throw new NotFoundError('User not found');
      return presentUser(user);
    },
  };
}
