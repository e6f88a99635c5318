import { Type } from '@sinclair/typebox';
import { literals, ListOf, Timestamp } from './common.ts';
import { User } from './orgs.ts';

/** Bounds of a password as the sign-in service takes it (8 to 256 characters for a new one). */
const Password = (description: string, minLength = 1) => Type.String({ minLength, maxLength: 256, description });

export const SignInBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), password: Password('The account\'s password') },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  { currentPassword: Password('The password in use'), newPassword: Password('8 to 256 characters', 8) },
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

export const ApiToken = Type.Object(
  {
    object: Type.Literal('api-token'),
    id: Type.String(),
    label: Type.String(),
    scope: literals(TOKEN_SCOPES),
    createdAt: Timestamp,
    expiresAt: Type.Union([Timestamp, Type.Null()]),
    lastUsedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'ApiToken' },
);

export const ApiTokens = ListOf(ApiToken);

export const CreatedApiToken = Type.Composite([ApiToken, Type.Object({ token: Type.String({ description: 'The secret: shown this once, never again' }) })], { title: 'CreatedApiToken' });

export const CreateApiTokenBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    expiresAt: Type.Optional(Timestamp),
    scope: Type.Optional(literals(TOKEN_SCOPES, { default: 'write', description: '`read` tokens may only read (GET)' })),
  },
  { additionalProperties: false },
);

export const AuditEntry = Type.Object(
  {
    object: Type.Literal('audit-entry'),
    id: Type.String(),
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
