import { randomBytes } from 'node:crypto';
import { errors, jwtVerify } from 'jose';

// GitBook's visitor authentication: the site's backend signs a JWT (HS256) with the site's
// visitor key; its claims (the registered ones aside) are what adaptive-content conditions read
// as `visitor.claims`.

/** A new visitor key: 32 random bytes, hex (GitBook shows the key as a string to paste in a backend). */
export const newVisitorKey = (): string => randomBytes(32).toString('hex');

/** The sealing context of a site's visitor key: the sealed key opens only on its own site's row. */
export const visitorKeyContext = (siteId: string) => `sites:visitor-key:${siteId}`;

const REGISTERED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

/** Longest token taken: verification is linear, but a bound keeps work before the check small. */
export const MAX_TOKEN_LENGTH = 8192;

/** The token's claims when it is signed with `key` and current; null otherwise (expired, forged, malformed). */
export async function verifyVisitorToken(token: string, key: string): Promise<Record<string, unknown> | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(key), { algorithms: ['HS256'] });
    return Object.fromEntries(Object.entries(payload).filter(([k]) => !REGISTERED.has(k)));
  } catch (err) {
    if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
