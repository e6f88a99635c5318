import { Type } from '@sinclair/typebox';
import { AUTH, COMMON } from '@quire/proto/limits';
import { ApiObject, chars, literals, ListOf, Timestamp } from './common.ts';
import { User } from './orgs.ts';

/** A password as the sign-in service takes it; longer ones are refused here, before any hashing. */
const Password = (description: string, minLength = 1) => Type.String({ minLength, maxLength: AUTH.password.max, description });

export const SignInBody = Type.Object({ email: Type.String(chars(COMMON.email)), password: Password("The account's password") }, { additionalProperties: false });

export const ChangePasswordBody = Type.Object(
  { currentPassword: Password('The password in use'), newPassword: Password(`${AUTH.password.min} to ${AUTH.password.max} characters`, AUTH.password.min) },
  { additionalProperties: false },
);

export const SessionInfo = Type.Object(
  {
    user: User,
    csrfToken: Type.String({ description: 'Send it back in the `x-csrf-token` header with every write this session makes' }),
  },
  { title: 'Session' },
);

export const TOKEN_SCOPES = ['read', 'write'] as const;

export const ApiToken = ApiObject(
  'api-token',
  {
    label: Type.String(),
    scope: literals(TOKEN_SCOPES),
    createdAt: Timestamp,
    expiresAt: Type.Union([Timestamp, Type.Null()]),
    lastUsedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'ApiToken' },
);

export const ApiTokens = ListOf(ApiToken);

export const CreatedApiToken = Type.Composite([ApiToken, Type.Object({ token: Type.String({ description: 'The secret: shown this once, never again' }) })], {
  title: 'CreatedApiToken',
});

export const CreateApiTokenBody = Type.Object(
  {
    label: Type.String(chars(AUTH.tokenLabel)),
    expiresAt: Type.Optional(Timestamp),
    scope: Type.Optional(literals(TOKEN_SCOPES, { default: 'write', description: '`read` tokens may only read (GET)' })),
  },
  { additionalProperties: false },
);

export const AuditEntry = ApiObject(
  'audit-entry',
  {
    createdAt: Timestamp,
    actor: Type.Union([Type.String(), Type.Null()], { description: 'Id of the user who acted; null for an anonymous attempt' }),
    action: Type.String({ description: '`<entity>.<verb>`, e.g. `user.signed_in`, `token.revoked`, `member.role_changed`' }),
    target: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
    userAgent: Type.Union([Type.String(), Type.Null()]),
    details: Type.Record(Type.String(), Type.Unknown()),
  },
  { title: 'AuditEntry' },
);

export const AuditLog = ListOf(AuditEntry);

export const SiteAccessQuery = Type.Object({
  organization: Type.String({ ...chars(AUTH.siteId), description: "The site's organization id" }),
  site: Type.String({ ...chars(AUTH.siteId), description: 'The site id' }),
  location: Type.String({ ...chars(COMMON.url), description: 'The page of the site to return to: on its custom hostname or below its published URL' }),
});
