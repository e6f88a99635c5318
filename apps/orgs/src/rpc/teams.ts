import { TeamMemberRole, type OrgsServiceServer } from '@quire/proto/orgs';
import { TEAM } from '@quire/proto/limits';
import { checkLength, InvalidArgumentError, NotFoundError, pageOf, PermissionDeniedError, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { allow } from '@quire/policy';
import { authorize } from '../domain/policy.ts';
import { roleFromDb } from '../domain/roles.ts';
import { presentTeam } from '../presenters.ts';
import type { Store, TeamRole } from '../store/index.ts';
import { callerOf, pageArgs, type Deps } from './deps.ts';
import { roleIn } from './organizations.ts';

type H = Handlers<OrgsServiceServer>;

async function teamOf(store: Store, organizationId: string, teamId: string) {
  const team = await store.getTeam(organizationId, teamId);
  if (!team) throw new NotFoundError('Team not found');
  return team;
}

/** Every id must be a member of the organization; the error names the first that is not. */
async function checkMembers(store: Store, organizationId: string, field: string, userIds: string[]) {
  const found = await store.memberIds(organizationId, userIds);
  const i = userIds.findIndex((id) => !found.has(id));
  if (i >= 0) throw new InvalidArgumentError(`${field}[${i}]: "${userIds[i]}" is not a member of the organization`);
}

function teamRoleFromProto(role: TeamMemberRole): TeamRole | undefined {
  if (role === TeamMemberRole.TEAM_MEMBER_ROLE_OWNER) return 'owner';
  if (role === TeamMemberRole.TEAM_MEMBER_ROLE_MEMBER) return 'member';
  return undefined;
}

/** The caller's org role and whether the caller may manage this team. */
async function teamAccess(store: Store, organizationId: string, teamId: string, caller: string) {
  const role = await roleIn(store, organizationId, caller);
  authorize(role, 'listTeams', 'Team');
  const team = await teamOf(store, organizationId, teamId);
  const owned = await store.ownedTeamIds(caller, [teamId]);
  return { team, canManage: allow(role, 'manage', 'team', { owner: owned.has(teamId) }) };
}

export function teamHandlers({ store }: Deps): Pick<H, 'listTeams' | 'createTeam' | 'getTeam' | 'updateTeam' | 'deleteTeam' | 'updateTeamMembers'> {
  return {
    async listTeams({ organizationId, page, owner, title }, ctx) {
      const caller = callerOf(ctx);
      const role = await roleIn(store, organizationId, caller);
      authorize(role, 'listTeams');
      const { limit, page: p } = pageArgs(page);
      let ownerId: string | undefined;
      if (owner) {
        // Those who manage every team (admins) own them all; others, the teams they own.
        const ownerRole = await store.membership(organizationId, owner);
        if (!ownerRole) return { items: [], page: {} };
        if (!allow(roleFromDb(ownerRole.role), 'manage', 'team', { owner: false })) ownerId = owner;
      }
      const rows = await store.listTeams(organizationId, { title: title?.trim() || undefined, ownerId }, p);
      const { items, next } = pageOf(rows, limit, (t) => t.id);
      const owned = await store.ownedTeamIds(
        caller,
        items.map((t) => t.id),
      );
      return { items: items.map((t) => presentTeam(t, allow(role, 'manage', 'team', { owner: owned.has(t.id) }))), page: { next } };
    },

    async createTeam({ organizationId, title, members }, ctx) {
      const caller = callerOf(ctx);
      authorize(await roleIn(store, organizationId, caller), 'manageTeams');
      checkLength('title', title, TEAM.title);
      const unique = [...new Set(members)];
      await checkMembers(store, organizationId, 'members', unique);
      const team = await store.createTeam({
        id: newId(),
        organizationId,
        title,
        members: unique.map((userId) => ({ userId, role: 'member' as const })),
      });
      return presentTeam(team, true);
    },

    async getTeam({ organizationId, teamId }, ctx) {
      const { team, canManage } = await teamAccess(store, organizationId, teamId, callerOf(ctx));
      return presentTeam(team, canManage);
    },

    async updateTeam({ organizationId, teamId, title }, ctx) {
      const { canManage } = await teamAccess(store, organizationId, teamId, callerOf(ctx));
      if (!canManage) throw new PermissionDeniedError('Only organization admins and team owners can change a team');
      checkLength('title', title, TEAM.title);
      return presentTeam(await store.updateTeam(teamId, title), true);
    },

    async deleteTeam({ organizationId, teamId }, ctx) {
      const caller = callerOf(ctx);
      const role = await roleIn(store, organizationId, caller);
      authorize(role, 'manageTeams', 'Team');
      await teamOf(store, organizationId, teamId);
      await store.deleteTeam(teamId);
      return {};
    },

    async updateTeamMembers({ organizationId, teamId, add, remove, memberships }, ctx) {
      const { canManage } = await teamAccess(store, organizationId, teamId, callerOf(ctx));
      if (!canManage) throw new PermissionDeniedError('Only organization admins and team owners can change a team');
      await checkMembers(store, organizationId, 'add', add);
      await checkMembers(
        store,
        organizationId,
        'memberships',
        memberships.map((m) => m.userId),
      );
      const upserts = [
        ...add.map((userId) => ({ userId })),
        ...memberships.map((m, i) => {
          const role = teamRoleFromProto(m.role);
          if (!role) throw new InvalidArgumentError(`memberships[${i}].role: must be owner or member`);
          return { userId: m.userId, role };
        }),
      ];
      await store.changeTeamMembers(teamId, remove, upserts);
      return {};
    },
  };
}
