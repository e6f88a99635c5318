import type { OrgsServiceServer } from '@quire/proto/orgs';
import { MEMBER } from '@quire/proto/limits';
import { callerOf, checkLength, InvalidArgumentError, NotFoundError, pageArgs, pageOf, type Handlers } from '@quire/service-kit';
import { isRole } from '@quire/policy';
import { newId } from '@quire/service-kit/ids';
import { authorize } from '../domain/policy.ts';
import { roleToDb } from '../domain/roles.ts';
import { checkEmail } from '../domain/validate.ts';
import { presentMember, teamRoleToProto } from '../presenters.ts';
import type { Deps } from './deps.ts';
import { organizationOf, roleIn } from './organizations.ts';

type H = Handlers<OrgsServiceServer>;

/** Team membership lists, invitations by email and subdomain lookups: who belongs where. */
export function peopleHandlers({ store, events }: Deps): Pick<H, 'listTeamMembers' | 'inviteUsers' | 'getSubdomain'> {
  return {
    async listTeamMembers({ organizationId, teamId, page }, ctx) {
      authorize(await roleIn(store, organizationId, callerOf(ctx)), 'listTeams', 'Team');
      if (!(await store.getTeam(organizationId, teamId))) throw new NotFoundError('Team not found');
      const { limit, page: p } = pageArgs(page);
      const rows = await store.listTeamMembers(organizationId, teamId, p);
      const { items, next } = pageOf(rows, limit, (r) => r.member.userId);
      const counts = await store.teamCounts(
        organizationId,
        items.map((r) => r.member.userId),
      );
      return {
        items: items.map((r) => ({ member: presentMember(r.member, counts.get(r.member.userId) ?? 0), role: teamRoleToProto(r.role) })),
        page: { next },
      };
    },

    async inviteUsers({ organizationId, invitees, role, sso }, ctx) {
      const { organization, role: callerRole } = await organizationOf(store, organizationId, callerOf(ctx));
      authorize(callerRole, 'manageMembers');
      if (invitees.length < MEMBER.invitees.min || invitees.length > MEMBER.invitees.max)
        throw new InvalidArgumentError(`emails: between ${MEMBER.invitees.min} and ${MEMBER.invitees.max} people`);
      const fallback = isRole(role) ? roleToDb(role) : organization.defaultRole;
      const checked = invitees.map((i, n) => {
        const email = checkEmail(i.email, `emails[${n}]`);
        const displayName = checkLength(`emails[${n}]`, email.slice(0, email.indexOf('@')), MEMBER.displayName);
        return { email, displayName, id: newId(), role: isRole(i.role) ? roleToDb(i.role) : fallback };
      });
      const { users, joined } = await store.invite(organizationId, checked, sso);
      for (const j of joined)
        await events.emit(ctx, { entity: 'member', verb: 'added', organizationId, target: { type: 'user', id: j.userId }, details: { role: j.role ?? 'guest', sso } });
      return { users, invited: joined.length };
    },

    async getSubdomain({ subdomain }, ctx) {
      callerOf(ctx);
      const organizationId = await store.organizationIdForHostname(subdomain.toLowerCase());
      if (!organizationId) throw new NotFoundError(`Subdomain "${subdomain}" not found`);
      return { subdomain: subdomain.toLowerCase(), organizationId };
    },
  };
}
