import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'qt_';

export function newApiToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Tokens are long random strings, so one SHA-256 is enough to store them safely. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
