import { SignJWT } from 'jose';
import { MemberSort, type OrgsServiceServer } from '@quire/proto/orgs';
import { SortOrder } from '@quire/proto/common';
import { InvalidArgumentError, NotFoundError, pageOf, type Handlers } from '@quire/service-kit';
import { allow, isRole } from '@quire/policy';
import { authorize } from '../domain/policy.ts';
import { keepAnAdmin, roleToDb } from '../domain/roles.ts';
import { presentMember, presentTeam, teamRoleToProto } from '../presenters.ts';
import type { Store } from '../store/index.ts';
import { callerOf, pageArgs, type Deps } from './deps.ts';
import { organizationOf, roleIn } from './organizations.ts';

type H = Handlers<OrgsServiceServer>;

async function memberOf(store: Store, organizationId: string, userId: string) {
  const member = await store.getMember(organizationId, userId);
  if (!member) throw new NotFoundError('Member not found');
  return member;
}

async function presentOne(store: Store, organizationId: string, member: Awaited<ReturnType<typeof memberOf>>) {
  const counts = await store.teamCounts(organizationId, [member.userId]);
  return presentMember(member, counts.get(member.userId) ?? 0);
}

export function memberHandlers({
  store,
  visitorClaimsKey,
  events,
}: Deps): Pick<H, 'listMembers' | 'getMember' | 'updateMember' | 'removeMember' | 'setMemberSso' | 'ping' | 'listMemberTeams'> {
  return {
    async listMembers(req, ctx) {
      const role = await roleIn(store, req.organizationId, callerOf(ctx));
      authorize(role, 'listMembers');
      const { limit, page } = pageArgs(req.page);
      const rows = await store.listMembers(
        req.organizationId,
        {
          role: isRole(req.role) ? roleToDb(req.role) : undefined,
          search: req.search?.trim() || undefined,
          sort: req.sort === MemberSort.MEMBER_SORT_LAST_SEEN_AT ? 'lastSeenAt' : 'joinedAt',
          order: req.order === SortOrder.SORT_ORDER_ASC ? 'asc' : 'desc',
        },
        page,
      );
      const { items, next } = pageOf(rows, limit, (m) => m.userId);
      const counts = await store.teamCounts(
        req.organizationId,
        items.map((m) => m.userId),
      );
      return { items: items.map((m) => presentMember(m, counts.get(m.userId) ?? 0)), page: { next } };
    },

    async getMember({ organizationId, userId }, ctx) {
      const caller = callerOf(ctx);
      const role = await roleIn(store, organizationId, caller);
      // Anyone may read their own membership; reading others' is listing members.
      if (caller !== userId) authorize(role, 'listMembers');
      return presentOne(store, organizationId, await memberOf(store, organizationId, userId));
    },

    async updateMember({ organizationId, userId, role: newRole }, ctx) {
      authorize(await roleIn(store, organizationId, callerOf(ctx)), 'manageMembers');
      const member = await memberOf(store, organizationId, userId);
      if (newRole === undefined) return presentOne(store, organizationId, member);
      if (!isRole(newRole)) throw new InvalidArgumentError('role: not a role');
      const next = roleToDb(newRole);
      const { before, member: updated } = await store.changeMember(organizationId, userId, { role: next }, (current, admins) => keepAnAdmin(current, next, admins));
      if (before !== next) {
        await events.emit(ctx, {
          entity: 'member',
          verb: 'role_changed',
          organizationId,
          target: { type: 'user', id: userId },
          details: { from: before ?? 'guest', to: next ?? 'guest' },
        });
      }
      return presentOne(store, organizationId, updated!);
    },

    async removeMember({ organizationId, userId }, ctx) {
      const caller = callerOf(ctx);
      const role = await roleIn(store, organizationId, caller);
      // Members may leave; removing someone else takes an admin.
      if (caller !== userId) authorize(role, 'manageMembers');
      await memberOf(store, organizationId, userId);
      const { before } = await store.changeMember(organizationId, userId, 'removed', (current, admins) => keepAnAdmin(current, 'removed', admins));
      await events.emit(ctx, { entity: 'member', verb: 'removed', organizationId, target: { type: 'user', id: userId }, details: { role: before ?? 'guest' } });
      return {};
    },

    async setMemberSso({ organizationId, userId }, ctx) {
      authorize(await roleIn(store, organizationId, callerOf(ctx)), 'manageMembers');
      await memberOf(store, organizationId, userId);
      return presentOne(store, organizationId, await store.updateMember(organizationId, userId, { sso: true }));
    },

    async ping({ organizationId }, ctx) {
      const caller = callerOf(ctx);
      const { organization, role } = await organizationOf(store, organizationId, caller);
      const member = await store.updateMember(organizationId, caller, { lastSeenAt: new Date() });
      const serviceVisitorClaims = await new SignJWT({
        organization: organization.id,
        role: roleToDb(role),
        user: { id: member.user.id, email: member.user.email, displayName: member.user.displayName },
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(caller)
        .setIssuer('quire')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(visitorClaimsKey);
      return { serviceVisitorClaims };
    },

    async listMemberTeams({ organizationId, userId, page, title }, ctx) {
      const caller = callerOf(ctx);
      const role = await roleIn(store, organizationId, caller);
      if (caller !== userId) authorize(role, 'listTeams');
      await memberOf(store, organizationId, userId);
      const { limit, page: p } = pageArgs(page);
      const rows = await store.listMemberTeams(organizationId, userId, { title: title?.trim() || undefined }, p);
      const { items, next } = pageOf(rows, limit, (r) => r.teamId);
      const owned = await store.ownedTeamIds(
        caller,
        items.map((r) => r.teamId),
      );
      return {
        items: items.map((r) => ({ team: presentTeam(r.team, allow(role, 'manage', 'team', { owner: owned.has(r.teamId) })), role: teamRoleToProto(r.role) })),
        page: { next },
      };
    },
  };
}
