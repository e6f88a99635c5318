import { randomBytes } from 'node:crypto';
import { COMMON } from '@quire/proto/limits';
import { TokenScope, type OrgsServiceServer } from '@quire/proto/orgs';
import { InvalidArgumentError, NotFoundError, UnauthenticatedError, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { checkSessionMethod, sessionEnd } from '../domain/credentials.ts';
import { hashToken } from '../domain/ids.ts';
import { checkNewPassword, hashPassword, verifyPassword } from '../domain/passwords.ts';
import { callerOf, type Deps } from './deps.ts';

type H = Handlers<OrgsServiceServer>;

const SESSION_PREFIX = 'qs_';
const newSessionSecret = () => SESSION_PREFIX + randomBytes(32).toString('base64url');

/** The same answer for an unknown email and a wrong password. */
const signInRefused = () => new UnauthenticatedError('The email or the password is not right');

export function sessionHandlers({
  store,
  events,
  sessions,
}: Deps): Pick<H, 'createSession' | 'authenticateSession' | 'endSession' | 'endAllSessions' | 'checkPassword' | 'changePassword'> {
  return {
    async createSession({ userId, method, client, previousSession }, ctx) {
      const m = checkSessionMethod(method);
      if (!(await store.getUser(userId))) throw new NotFoundError('User not found');
      const secret = newSessionSecret();
      const expiresAt = new Date(Date.now() + sessions.maxAgeMs);
      const previousHash = previousSession ? hashToken(previousSession) : undefined;
      await store.createSession(
        { id: newId(), hash: hashToken(secret), userId, method: m, expiresAt, ip: client?.ip || undefined, userAgent: client?.userAgent?.slice(0, 512) || undefined },
        previousHash,
      );
      if (previousHash) await events.revoked([previousHash]);
      const where = { ...ctx, userId, ip: client?.ip, userAgent: client?.userAgent };
      await events.emit(where, { entity: 'user', verb: 'signed_in', target: { type: 'user', id: userId }, details: { method: m } });
      return { session: secret, expiresAt };
    },

    async authenticateSession({ session }) {
      const row = session ? await store.sessionByHash(hashToken(session), sessions.idleMs) : undefined;
      if (!row) throw new UnauthenticatedError('The session has ended');
      return { userId: row.userId, scope: TokenScope.TOKEN_SCOPE_WRITE, expiresAt: sessionEnd(row.lastSeenAt, row.expiresAt, sessions.idleMs) };
    },

    async endSession({ session }, ctx) {
      const hash = hashToken(session);
      if (session && (await store.endSession(hash))) {
        await events.revoked([hash]);
        if (ctx.userId) await events.emit(ctx, { entity: 'user', verb: 'signed_out', target: { type: 'user', id: ctx.userId } });
      }
      return {};
    },

    async endAllSessions(_req, ctx) {
      const userId = callerOf(ctx);
      const hashes = await store.endSessionsOf(userId);
      await events.revoked(hashes);
      await events.emit(ctx, { entity: 'user', verb: 'signed_out_everywhere', target: { type: 'user', id: userId }, details: { sessions: hashes.length } });
      return {};
    },

    async checkPassword({ email, password, client }, ctx) {
      const e = email.trim().toLowerCase();
      const user = e.length <= COMMON.email.max ? await store.findUserByEmail(e) : null;
      const ok = await verifyPassword(user?.passwordHash, password);
      if (!ok || !user) {
        const where = { ...ctx, userId: undefined, ip: client?.ip, userAgent: client?.userAgent };
        // Recorded against the account when there is one (its organizations see it), else with the address only.
        await events.emit(where, {
          entity: 'user',
          verb: 'sign_in_failed',
          target: user ? { type: 'user', id: user.id } : undefined,
          details: { method: 'password', email: e.slice(0, COMMON.email.max) },
        });
        throw signInRefused();
      }
      return { userId: user.id };
    },

    async changePassword({ currentPassword, newPassword, keepSession }, ctx) {
      const userId = callerOf(ctx);
      const user = await store.getUser(userId);
      if (!user) throw new NotFoundError('User not found');
      checkNewPassword('newPassword', newPassword);
      // A user without a password yet (SSO, CLI-made) sets one only through the CLI.
      if (!(await verifyPassword(user.passwordHash, currentPassword))) throw new InvalidArgumentError('currentPassword: is not right');
      await store.setPasswordHash(userId, await hashPassword(newPassword));
      const ended = await store.endSessionsOf(userId, keepSession ? hashToken(keepSession) : undefined);
      await events.revoked(ended);
      await events.emit(ctx, { entity: 'user', verb: 'password_changed', target: { type: 'user', id: userId }, details: { sessionsEnded: ended.length } });
      return {};
    },
  };
}
