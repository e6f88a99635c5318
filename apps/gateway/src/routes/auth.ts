import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { GRANTS, InvalidArgumentError, isServiceError, ResourceExhaustedError, SITE_MEMBER_GRANT_SECONDS, UnauthenticatedError } from '@quire/service-kit';
import { Type } from '@sinclair/typebox';
import { anonymousCaller, authenticate } from '../plugins/auth.ts';
import { presentUser } from '../presenters/orgs.ts';
import { ChangePasswordBody, SessionInfo, SignInBody, SiteAccessQuery } from '../schemas/auth.ts';
import { NoContent } from '../schemas/common.ts';
import { csrfTokenFor } from '../sessions.ts';
import type { RouteDeps } from './context.ts';
import { operations } from './operation.ts';

const op = operations('sign-in');
const security = [{ session: [] }];

/**
 * The sign-in family, on the gateway's origin (so the web app and the API share one cookie),
 * beside /v1 rather than in it: sign-in needs no credential and sign-out takes only the cookie.
 */
const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs, sites, identity }, urls, sessions, authenticator, signInThrottle }) => {
  const { perAccount, perAddress, windowMs } = signInThrottle;

  /**
   * Failed sign-ins count per account and per address on the gateway's shared limiter (every
   * replica sees them); past either limit, sign-in answers 429 until the window ends, right or
   * wrong password alike, before any password is checked.
   */
  const throttleKeys = (email: string, ip: string) =>
    [
      [`signin:account:${email.trim().toLowerCase()}`, perAccount],
      [`signin:address:${ip}`, perAddress],
    ] as const;

  async function refuseThrottled(email: string, ip: string, reply: FastifyReply) {
    for (const [key, limit] of throttleKeys(email, ip)) {
      const r = await app.limiter.peek(key, limit, windowMs);
      if (r.allowed) continue;
      const seconds = Math.ceil(r.resetMs / 1000);
      void reply.header('retry-after', seconds);
      throw new ResourceExhaustedError(`Too many failed sign-ins; retry in ${seconds} s`, 'sign_in_throttled');
    }
  }

  /** The request's live session, its CSRF checked for writes; 401 without one. */
  async function requireSession(req: Parameters<typeof authenticate>[0]) {
    if (req.headers.authorization || !sessions.current(req)) throw new UnauthenticatedError('No session: sign in first (POST /auth/sign-in)');
    const { session } = await authenticate(req, authenticator, sessions);
    return session!;
  }

  app.post(
    '/sign-in',
    op({
      operationId: 'signIn',
      security: [],
      summary: 'Sign in with email and password: answers 204 with the session cookie',
      description: 'An unknown email and a wrong password answer alike (401). Repeated failures are throttled per account and per address.',
      body: SignInBody,
      response: { 204: NoContent },
    }),
    async (req, reply) => {
      sessions.checkOrigin(req);
      const { email, password } = req.body;
      await refuseThrottled(email, req.ip, reply);
      let userId: string;
      try {
        ({ userId } = await orgs.checkPassword({ email, password, client: { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' } }, anonymousCaller(req)));
      } catch (err) {
        if (isServiceError(err) && err.code === GrpcStatus.UNAUTHENTICATED) for (const [key, limit] of throttleKeys(email, req.ip)) await app.limiter.hit(key, limit, windowMs);
        throw err;
      }
      await sessions.issue(req, reply, userId, 'password');
      return reply.code(204).send();
    },
  );

  app.post(
    '/sign-out',
    op({ operationId: 'signOut', security, summary: 'End this session (no-op without one) and clear its cookie', response: { 204: NoContent } }),
    async (req, reply) => {
      const session = sessions.current(req);
      if (session) {
        // Without a live session there is nothing to protect; with one, only this origin ends it.
        const live = await authenticator.resolve('session', session).catch(() => undefined);
        if (live) {
          sessions.checkCsrf(req, session);
          await orgs.endSession({ session }, { ...anonymousCaller(req), userId: live.userId });
        }
      }
      sessions.clear(reply);
      return reply.code(204).send();
    },
  );

  app.post(
    '/sign-out-everywhere',
    op({ operationId: 'signOutEverywhere', security, summary: 'End every session of the signed-in user, on every device', response: { 204: NoContent } }),
    async (req, reply) => {
      await requireSession(req);
      await orgs.endAllSessions({}, req.caller);
      sessions.clear(reply);
      return reply.code(204).send();
    },
  );

  app.get(
    '/site-access',
    op({
      operationId: 'getSiteAccess',
      security,
      summary: 'Send a signed-in member back to a private published site with a short-lived grant',
      description: `The reader links here from a site a visitor may not read. A member of the site's organization returns to \`location\` with \`quire_member\`, a grant for this site lasting ${SITE_MEMBER_GRANT_SECONDS} s, which the reader keeps in a cookie; \`location\` must be a page of the site.`,
      querystring: SiteAccessQuery,
      response: { 302: Type.Null({ description: 'Redirect (Location header)' }) },
    }),
    async (req, reply) => {
      await requireSession(req);
      // A site the user may not read answers 404, like a missing one.
      const site = await sites.getSite({ site: { organizationId: req.query.organization, siteId: req.query.site } }, req.caller);
      if (!isSitePage(req.query.location, site, urls.published(site.organizationId, site.id))) {
        throw new InvalidArgumentError('location: must be a page of the site (its custom hostname or its published URL)');
      }
      const grant = await identity.signGrant(GRANTS.siteMember, req.caller.userId!, { site: site.id }, SITE_MEMBER_GRANT_SECONDS);
      const back = new URL(req.query.location);
      back.searchParams.set('quire_member', grant);
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return reply.redirect(back.toString(), 302);
    },
  );

  app.get(
    '/session',
    op({ operationId: 'getSession', security, summary: 'The signed-in user and the CSRF token of this session', response: { 200: SessionInfo } }),
    async (req, reply) => {
      const session = await requireSession(req);
      void reply.header('cache-control', 'no-store');
      return { user: presentUser(await orgs.getCurrentUser({}, req.caller), urls), csrfToken: csrfTokenFor(session) };
    },
  );

  app.post(
    '/password',
    op({
      operationId: 'changePassword',
      security,
      summary: "Change the signed-in user's password; the user's other sessions end",
      body: ChangePasswordBody,
      response: { 204: NoContent },
    }),
    async (req, reply) => {
      const session = await requireSession(req);
      await orgs.changePassword({ currentPassword: req.body.currentPassword, newPassword: req.body.newPassword, keepSession: session }, req.caller);
      return reply.code(204).send();
    },
  );
};

/**
 * Whether `location` is a page of the site: on its custom hostname, or below its published URL.
 * Anything else is refused, so the route never sends a member's grant to another address.
 */
function isSitePage(location: string, site: { hostname?: string }, publishedUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  if (site.hostname && url.hostname === site.hostname.toLowerCase()) return true;
  const published = new URL(publishedUrl);
  return url.origin === published.origin && (url.pathname === published.pathname || url.pathname.startsWith(`${published.pathname}/`));
}

export default routes;
