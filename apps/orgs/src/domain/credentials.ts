import { AUTH } from '@quire/proto/limits';
import { TokenScope } from '@quire/proto/orgs';
import { checkLength, InvalidArgumentError } from '@quire/service-kit';

// Rules of sessions and API tokens, apart from storage.

export const SESSION_METHODS = ['password', 'oidc', 'saml'] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

export function checkSessionMethod(method: string): SessionMethod {
  if (!(SESSION_METHODS as readonly string[]).includes(method)) throw new InvalidArgumentError(`method: must be one of ${SESSION_METHODS.join(', ')}`);
  return method as SessionMethod;
}

/** When a session ends at the latest if unused from now: its idle end, never past its absolute end. */
export function sessionEnd(lastSeenAt: Date, expiresAt: Date, idleMs: number): Date {
  return new Date(Math.min(lastSeenAt.getTime() + idleMs, expiresAt.getTime()));
}

export const checkTokenLabel = (label: string) => checkLength('label', label.trim(), AUTH.tokenLabel);

/** A token's expiry must lie ahead. */
export function checkTokenExpiry(expiresAt: Date | undefined, now: Date): Date | undefined {
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw new InvalidArgumentError('expiresAt: must be in the future');
  return expiresAt;
}

export type DbTokenScope = 'read' | 'write';

/** `write` unless `read` is asked for: tokens are made for scripts that change things. */
export const scopeToDb = (scope: TokenScope): DbTokenScope => (scope === TokenScope.TOKEN_SCOPE_READ ? 'read' : 'write');
export const scopeFromDb = (scope: DbTokenScope): TokenScope => (scope === 'read' ? TokenScope.TOKEN_SCOPE_READ : TokenScope.TOKEN_SCOPE_WRITE);
