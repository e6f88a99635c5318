import type {
  LinkInvite as LinkInviteMsg,
  Member as MemberMsg,
  OidcProvider as OidcProviderMsg,
  Organization as OrganizationMsg,
  SamlProvider as SamlProviderMsg,
  Team as TeamMsg,
  TranslationSettings as TranslationSettingsMsg,
  User as UserMsg,
} from '@quire/proto/orgs';
import { SignInProviderKind, TeamMemberRole, type SsoLogin } from '@quire/proto/orgs';
import { roleToApi } from '@quire/policy';
import type { Static } from '@sinclair/typebox';
import type { LinkInvite, Member, OidcProvider, Organization, SamlProvider, Team, TranslationSettings, User } from '../schemas/orgs.ts';
import { flags } from './permissions.ts';
import { iso } from './time.ts';
import type { Urls } from './urls.ts';

// Proto message to the exact JSON of the reference.

export function presentUser(u: UserMsg | undefined, urls: Urls): Static<typeof User> {
  const user = u ?? { id: '', displayName: '', email: '' };
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
    urls: { location: urls.api(`/users/${user.id}`) },
  };
}

export function presentOrganization(o: OrganizationMsg, urls: Urls): Static<typeof Organization> {
  return {
    object: 'organization',
    id: o.id,
    title: o.title,
    createdAt: iso(o.createdAt),
    emailDomains: o.emailDomains,
    ...(o.hostname ? { hostname: o.hostname } : {}),
    type: o.type,
    ...(o.useCase ? { useCase: o.useCase } : {}),
    ...(o.communityType ? { communityType: o.communityType } : {}),
    defaultRole: roleToApi(o.defaultRole),
    ...(o.defaultContentSite ? { defaultContent: { type: 'site' as const, site: o.defaultContentSite } } : {}),
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.inviteLinks,
    plan: o.plan,
    urls: { location: urls.api(`/orgs/${o.id}`), app: urls.app(`/o/${o.id}`), ...(o.logo ? { logo: o.logo } : {}) },
    trial: { status: 'notapplicable' },
    internal_isOnNewTrial: true,
    permissions: {
      ...flags(o.permissions, 'view', 'admin', 'ownTeam', 'createContent'),
      // The API spells it createOpenAPISpec.
      createOpenAPISpec: !!o.permissions?.createOpenApiSpec,
      ...flags(o.permissions, 'ingestConversations', 'viewBilling', 'listMembers', 'listTeams', 'listIntegrations'),
    },
  };
}

export function presentMember(m: MemberMsg, urls: Urls): Static<typeof Member> {
  return {
    object: 'member',
    id: m.id,
    role: roleToApi(m.role),
    user: presentUser(m.user, urls),
    disabled: m.disabled,
    joinedAt: iso(m.joinedAt),
    ...(m.lastSeenAt ? { lastSeenAt: iso(m.lastSeenAt) } : {}),
    sso: m.sso,
    spaces: m.spaces,
    teams: m.teams,
  };
}

export function presentTeam(t: TeamMsg | undefined): Static<typeof Team> {
  const team = t ?? { id: '', title: '', members: 0, spaces: 0 };
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: team.members,
    spaces: team.spaces,
    createdAt: iso(t?.createdAt),
    permissions: { admin: !!t?.permissions?.admin, view: !!t?.permissions?.view },
  };
}

export function teamRoleToApi(role: TeamMemberRole): 'owner' | 'member' {
  return role === TeamMemberRole.TEAM_MEMBER_ROLE_OWNER ? 'owner' : 'member';
}

export function teamRoleFromApi(role: 'owner' | 'member'): TeamMemberRole {
  return role === 'owner' ? TeamMemberRole.TEAM_MEMBER_ROLE_OWNER : TeamMemberRole.TEAM_MEMBER_ROLE_MEMBER;
}

export function presentLinkInvite(i: LinkInviteMsg): Static<typeof LinkInvite> {
  return { object: 'invite', id: i.id, role: roleToApi(i.role), redundant: i.redundant };
}

/** The gateway's SAML endpoints of a provider: the addresses its identity provider is configured with. */
export function samlServiceUrls(providerId: string, urls: Urls) {
  const base = urls.auth(`/saml/${providerId}`);
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/** The gateway's OIDC endpoints of a provider: the redirect URI to register with it, and where sign-in starts. */
export function oidcServiceUrls(providerId: string, urls: Urls) {
  const base = urls.auth(`/oidc/${providerId}`);
  return { redirectURL: `${base}/callback`, startURL: `${base}/start` };
}

export function presentOidcProvider(p: OidcProviderMsg, organizationId: string, urls: Urls): Static<typeof OidcProvider> {
  return {
    object: 'oidc-provider',
    id: p.id,
    label: p.label,
    issuer: p.issuer,
    clientId: p.clientId,
    ...(p.defaultTeam ? { defaultTeam: presentTeam(p.defaultTeam) } : {}),
    defaultRole: roleToApi(p.defaultRole),
    createdAt: iso(p.createdAt),
    service: oidcServiceUrls(p.id, urls),
    urls: { location: urls.api(`/orgs/${organizationId}/oidc/${p.id}`) },
  };
}

export function presentSamlProvider(p: SamlProviderMsg, organizationId: string, urls: Urls): Static<typeof SamlProvider> {
  return {
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    ssoURL: p.ssoUrl,
    entityID: p.entityId,
    certificate: p.certificate,
    ...(p.defaultTeam ? { defaultTeam: presentTeam(p.defaultTeam) } : {}),
    defaultRole: roleToApi(p.defaultRole),
    createdAt: iso(p.createdAt),
    status: p.active ? 'active' : 'pending',
    service: samlServiceUrls(p.id, urls),
    urls: { location: urls.api(`/orgs/${organizationId}/saml/${p.id}`) },
  };
}

/** A provider as a sign-in page offers it: its kind, label and where sign-in starts. */
export function presentSignInOption(p: SsoLogin, urls: Urls) {
  return p.kind === SignInProviderKind.SIGN_IN_PROVIDER_KIND_OIDC
    ? { type: 'oidc' as const, id: p.id, label: p.label, startURL: oidcServiceUrls(p.id, urls).startURL }
    : { type: 'saml' as const, id: p.id, label: p.label, startURL: samlServiceUrls(p.id, urls).startURL };
}

export function presentTranslation(t: TranslationSettingsMsg, organizationId: string, urls: Urls): Static<typeof TranslationSettings> {
  return {
    object: 'translation-settings',
    id: t.id,
    title: t.title,
    languages: t.languages,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
    permissions: { view: !!t.permissions?.view, edit: !!t.permissions?.edit },
    urls: { location: urls.api(`/orgs/${organizationId}/translations/${t.id}`) },
  };
}
