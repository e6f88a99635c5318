import { absentIfNull, emptyIfNull } from '@quire/service-kit';
import type { LinkInvite, Member, OidcProvider, Organization, SamlProvider, Team, TranslationSettings, User } from '@quire/proto/orgs';
import { TeamMemberRole } from '@quire/proto/orgs';
import { inviteRedundant, organizationPermissions, type Role } from '@quire/policy';
import { roleFromDb } from './domain/roles.ts';
import type { LinkInviteRow, MemberRow, OidcProviderRow, OrganizationRow, SamlProviderRow, TeamRow, TranslationRow, UserRow, DbRole } from './store/index.ts';
import { isActive } from './domain/saml.ts';

// Row to proto message, apart from the rules. Counts the service does not own (spaces) are 0
// until the content service reports them.

export function presentUser(u: UserRow): User {
  return { id: u.id, displayName: u.displayName, email: u.email, photoUrl: u.photoURL ?? undefined };
}

/** A member as a published page shows them to its visitors: the name only. */
export function presentPublicUser(u: UserRow): User {
  return { id: u.id, displayName: u.displayName, email: '' };
}

export function presentOrganization(o: OrganizationRow, callerRole: Role): Organization {
  return {
    id: o.id,
    title: o.title,
    createdAt: o.createdAt,
    emailDomains: o.emailDomains,
    ...absentIfNull(o, 'hostname', 'useCase', 'communityType', 'defaultContentSite', 'logo'),
    type: o.type,
    defaultRole: roleFromDb(o.defaultRole),
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.inviteLinks,
    plan: o.plan,
    permissions: organizationPermissions(callerRole),
  };
}

export function presentMember(m: MemberRow, teams: number): Member {
  return {
    id: m.userId,
    role: roleFromDb(m.role),
    user: presentUser(m.user),
    disabled: m.disabled,
    joinedAt: m.joinedAt,
    lastSeenAt: m.lastSeenAt ?? undefined,
    sso: m.sso,
    spaces: 0,
    teams,
  };
}

export function presentTeam(t: TeamRow, canAdmin: boolean): Team {
  return {
    id: t.id,
    title: t.title,
    members: t._count.members,
    spaces: 0,
    createdAt: t.createdAt,
    permissions: { admin: canAdmin, view: true },
  };
}

export function teamRoleToProto(role: 'owner' | 'member'): TeamMemberRole {
  return role === 'owner' ? TeamMemberRole.TEAM_MEMBER_ROLE_OWNER : TeamMemberRole.TEAM_MEMBER_ROLE_MEMBER;
}

export function presentLinkInvite(i: LinkInviteRow, defaultRole: DbRole | null): LinkInvite {
  const role = roleFromDb(i.role);
  return {
    id: i.id,
    role,
    redundant: inviteRedundant(roleFromDb(defaultRole), role),
    createdAt: i.createdAt,
  };
}

export function presentSamlProvider(p: SamlProviderRow, canAdminTeam: boolean): SamlProvider {
  return {
    id: p.id,
    label: p.label,
    ...emptyIfNull(p, 'ssoUrl', 'entityId', 'certificate'),
    defaultTeam: p.defaultTeam ? presentTeam(p.defaultTeam, canAdminTeam) : undefined,
    defaultRole: roleFromDb(p.defaultRole),
    createdAt: p.createdAt,
    active: isActive(p),
  };
}

export function presentOidcProvider(p: OidcProviderRow): OidcProvider {
  return {
    id: p.id,
    label: p.label,
    issuer: p.issuer,
    clientId: p.clientId,
    // Only admins see providers, so the default team is always shown as theirs to admin.
    defaultTeam: p.defaultTeam ? presentTeam(p.defaultTeam, true) : undefined,
    defaultRole: roleFromDb(p.defaultRole),
    createdAt: p.createdAt,
  };
}

export function presentTranslation(t: TranslationRow, permissions: { view: boolean; edit: boolean }): TranslationSettings {
  return { id: t.id, title: t.title, languages: t.languages, createdAt: t.createdAt, updatedAt: t.updatedAt, permissions };
}
