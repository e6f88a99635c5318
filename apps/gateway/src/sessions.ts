import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PermissionDeniedError, sessionCookieName } from '@quire/service-kit';
import type { Services } from './clients.ts';

export type SignInMethod = 'password' | 'oidc' | 'saml';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The CSRF token of a session: derived from its secret, so it needs no storage and no other session's works. */
export const csrfTokenFor = (session: string) => createHash('sha256').update(`quire-csrf:${session}`).digest('base64url');

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function originOf(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * Browser sessions on the gateway's origin: the cookie (HttpOnly, SameSite=Lax, Secure and
 * `__Host-` prefixed behind HTTPS), its issuance at every sign-in (password now, OIDC and SAML
 * through the same `issue`), and the CSRF rules of writes authenticated by it.
 */
export function makeSessions(publicUrl: string, services: Services) {
  const publicOrigin = new URL(publicUrl).origin;
  const secure = publicOrigin.startsWith('https:');
  const cookieName = sessionCookieName(publicUrl);
  const cookieOptions = { httpOnly: true, secure, sameSite: 'lax' as const, path: '/' };

  const current = (req: FastifyRequest): string | undefined => {
    const value = req.cookies?.[cookieName];
    return value && value.length <= 256 ? value : undefined;
  };

  return {
    cookieName,
    /** The session secret the request's cookie carries, if any. */
    current,

    /**
     * Signs `userId` in: a new session (the browser's previous one ends, so no id outlives a
     * sign-in), set as the cookie. The one way every sign-in method starts a session.
     */
    async issue(req: FastifyRequest, reply: FastifyReply, userId: string, method: SignInMethod) {
      const { session, expiresAt } = await services.orgs.createSession(
        { userId, method, client: { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' }, previousSession: current(req) },
        { requestId: req.id },
      );
      void reply.setCookie(cookieName, session, { ...cookieOptions, expires: expiresAt });
      return { session, expiresAt };
    },

    clear(reply: FastifyReply) {
      void reply.clearCookie(cookieName, cookieOptions);
    },

    /**
     * Writes by cookie must come from this origin (Origin, else Referer, when the browser sends
     * them) and carry the session's CSRF token in `x-csrf-token`. Reads need neither.
     */
    checkCsrf(req: FastifyRequest, session: string) {
      if (SAFE_METHODS.has(req.method)) return;
      this.checkOrigin(req);
      const token = req.headers['x-csrf-token'];
      if (typeof token !== 'string' || !sameToken(token, csrfTokenFor(session))) {
        throw new PermissionDeniedError('CSRF: a request authenticated by the session cookie must send its x-csrf-token header (GET /auth/session)', 'csrf');
      }
    },

    /** Refuses a request a page of another origin sent (also guards sign-in against login CSRF). */
    checkOrigin(req: FastifyRequest) {
      const origin = req.headers.origin ?? (req.headers.referer ? originOf(req.headers.referer) : undefined);
      if (origin !== undefined && origin !== publicOrigin) throw new PermissionDeniedError(`CSRF: requests from ${origin} are not accepted here`, 'csrf');
    },
  };
}

export type Sessions = ReturnType<typeof makeSessions>;
