import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { PermissionDeniedError, UnauthenticatedError, type Caller } from '@quire/service-kit';
import type { Authenticator } from '../credentials.ts';
import type { Sessions } from '../sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller & { userId: string };
  }
  interface FastifyContextConfig {
    /** A route of the authenticated scope that answers without a token. */
    public?: boolean;
  }
}

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,512})$/i;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who calls from where, for every service call (the audit log reads the address and agent). */
export const anonymousCaller = (req: FastifyRequest): Caller => ({ requestId: req.id, ip: req.ip, userAgent: req.headers['user-agent'] });

/** The token of an `Authorization: Bearer` header, however the scheme is spelled or spaced; undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  return header && header.length <= 1024 ? BEARER.exec(header.trim())?.[1] : undefined;
}

/**
 * Who a request comes from, by `Authorization: Bearer` (an API token) or, without one, by the
 * session cookie (then writes pass the CSRF check); sets `req.caller`. Returns the session
 * secret when the cookie was used, and whether the credential may only read.
 */
export async function identify(req: FastifyRequest, authenticator: Authenticator, sessions: Sessions): Promise<{ session?: string; readOnly: boolean }> {
  const header = req.headers.authorization;
  let credential;
  let session: string | undefined;
  if (header) {
    const token = bearerToken(header);
    if (!token) throw new UnauthenticatedError();
    credential = await authenticator.resolve('token', token);
    if (!credential) throw new UnauthenticatedError('The access token is not valid');
  } else {
    session = sessions.current(req);
    if (!session) throw new UnauthenticatedError('Authentication required: send Authorization: Bearer <token> or sign in (POST /auth/sign-in)');
    credential = await authenticator.resolve('session', session);
    if (!credential) throw new UnauthenticatedError('The session has ended');
    sessions.checkCsrf(req, session);
  }
  req.caller = { ...anonymousCaller(req), userId: credential.userId };
  return { session, readOnly: credential.readOnly };
}

/** As `identify`, and a read-only token may only read. */
export async function authenticate(req: FastifyRequest, authenticator: Authenticator, sessions: Sessions): Promise<{ session?: string }> {
  const { session, readOnly } = await identify(req, authenticator, sessions);
  if (readOnly && !READS.has(req.method)) throw new PermissionDeniedError('This token is read-only (scope read): it cannot change anything', 'read_only_token');
  return { session };
}

/** Every route of the scope that registers this (/v1) needs a token or a session, but `public` ones. */
const auth: FastifyPluginAsync<{ authenticator: Authenticator; sessions: Sessions }> = async (app, { authenticator, sessions }) => {
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config.public) return;
    await authenticate(req, authenticator, sessions);
  });
};

// fastify-plugin: the hook belongs to the scope that registers this (/v1), not to a child of it.
export default fp(auth);
