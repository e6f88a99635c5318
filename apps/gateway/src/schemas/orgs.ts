import { Type } from '@sinclair/typebox';
import { ORGANIZATION } from '@quire/proto/limits';
import { ApiObject, chars, RoleOrGuest, Timestamp } from './common.ts';

export const User = ApiObject(
  'user',
  {
    displayName: Type.String(),
    email: Type.Optional(Type.String()),
    photoURL: Type.Optional(Type.String()),
    urls: Type.Object({ location: Type.String() }),
  },
  { title: 'User' },
);

export const OrganizationPermissions = Type.Object({
  view: Type.Boolean(),
  admin: Type.Boolean(),
  ownTeam: Type.Boolean(),
  createContent: Type.Boolean(),
  createOpenAPISpec: Type.Boolean(),
  ingestConversations: Type.Boolean(),
  viewBilling: Type.Boolean(),
  listMembers: Type.Boolean(),
  listTeams: Type.Boolean(),
  listIntegrations: Type.Boolean(),
});

export const SitePointer = Type.Object({ type: Type.Literal('site'), site: Type.String(chars(ORGANIZATION.defaultContentSite)) });

export const Organization = ApiObject(
  'organization',
  {
    title: Type.String(chars(ORGANIZATION.title)),
    createdAt: Timestamp,
    emailDomains: Type.Array(Type.String()),
    hostname: Type.Optional(Type.String(chars(ORGANIZATION.hostname))),
    type: Type.String({ description: '`business` or `community`' }),
    useCase: Type.Optional(Type.String()),
    communityType: Type.Optional(Type.String()),
    defaultRole: RoleOrGuest,
    defaultContent: Type.Optional(SitePointer),
    sso: Type.Boolean(),
    ai: Type.Boolean(),
    inviteLinks: Type.Boolean(),
    plan: Type.String(),
    urls: Type.Object({ location: Type.String(), app: Type.String(), logo: Type.Optional(Type.String()) }),
    trial: Type.Object({ status: Type.String() }),
    internal_isOnNewTrial: Type.Boolean({ deprecated: true, description: 'Deprecated; always true' }),
    permissions: OrganizationPermissions,
  },
  { title: 'Organization' },
);

export const Member = ApiObject(
  'member',
  {
    role: RoleOrGuest,
    user: User,
    disabled: Type.Boolean(),
    joinedAt: Timestamp,
    lastSeenAt: Type.Optional(Timestamp),
    sso: Type.Boolean(),
    spaces: Type.Integer(),
    teams: Type.Integer(),
  },
  { title: 'Member' },
);

export const Team = ApiObject(
  'team',
  {
    title: Type.String(),
    members: Type.Integer(),
    spaces: Type.Integer(),
    createdAt: Timestamp,
    permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() }),
  },
  { title: 'Team' },
);

export const TeamMemberRole = Type.Union([Type.Literal('owner'), Type.Literal('member')]);

export const LinkInvite = Type.Object({ object: Type.Literal('invite'), id: Type.String(), role: RoleOrGuest, redundant: Type.Boolean() }, { title: 'LinkInvite' });

export const SamlProvider = ApiObject(
  'saml-provider',
  {
    label: Type.String(),
    ssoURL: Type.String(),
    entityID: Type.String(),
    certificate: Type.String(),
    defaultTeam: Type.Optional(Team),
    defaultRole: RoleOrGuest,
    createdAt: Timestamp,
    status: Type.Union([Type.Literal('active'), Type.Literal('pending')]),
    service: Type.Object({ acsURL: Type.String(), startURL: Type.String(), entityID: Type.String() }),
    urls: Type.Object({ location: Type.String() }),
  },
  { title: 'SamlProvider' },
);

export const OidcProvider = ApiObject(
  'oidc-provider',
  {
    label: Type.String(),
    issuer: Type.String({ description: 'The OpenID issuer; its discovery document is read from `{issuer}/.well-known/openid-configuration`' }),
    clientId: Type.String(),
    defaultTeam: Type.Optional(Team),
    defaultRole: RoleOrGuest,
    createdAt: Timestamp,
    service: Type.Object({ redirectURL: Type.String({ description: 'The redirect URI to register with the provider' }), startURL: Type.String() }),
    urls: Type.Object({ location: Type.String() }),
  },
  { title: 'OidcProvider', description: 'An OpenID Connect provider; its client secret is write-only' },
);

export const SignInOption = Type.Object(
  {
    type: Type.Union([Type.Literal('saml'), Type.Literal('oidc')]),
    id: Type.String(),
    label: Type.String(),
    startURL: Type.String({ description: 'Where the browser goes to sign in with this provider' }),
  },
  { title: 'SignInOption' },
);

export const TranslationSettings = ApiObject(
  'translation-settings',
  {
    title: Type.String(),
    languages: Type.Array(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
    urls: Type.Object({ location: Type.String() }),
  },
  { title: 'TranslationSettings' },
);
