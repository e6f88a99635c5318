import { LRUCache } from 'lru-cache';
import { TokenScope } from '@quire/proto/orgs';
import { AUTH_REVOKED_SUBJECT, credentialHash, type NatsConnection } from '@quire/service-kit/nats';
import type { Logger } from '@quire/service-kit';
import type { Services } from './clients.ts';

/** Who a credential acts for, and whether it may change things. */
export interface Credential {
  userId: string;
  readOnly: boolean;
}

type Kind = 'token' | 'session';

/**
 * Resolves API tokens and session cookies through orgs. Answers are cached for a short while
 * (never past the credential's own end), concurrent lookups of one credential share a single
 * call, and an entry is dropped the moment orgs broadcasts its revocation (a token deleted, a
 * sign-out) on NATS, so every replica stops honouring it at once.
 */
export function makeAuthenticator(services: Services, ttlMs: number, nc: NatsConnection, log: Logger) {
  const lookup = async (kind: Kind, secret: string) => {
    const res = kind === 'session' ? await services.orgs.authenticateSession({ session: secret }, {}) : await services.orgs.authenticate({ token: secret }, {});
    return { credential: { userId: res.userId, readOnly: res.scope === TokenScope.TOKEN_SCOPE_READ }, expiresAt: res.expiresAt };
  };
  const cache = new LRUCache<string, Credential, { kind: Kind; secret: string }>({
    max: 10_000,
    ttl: Math.max(ttlMs, 1),
    fetchMethod: async (_hash, _stale, { context, options }) => {
      const { credential, expiresAt } = await lookup(context.kind, context.secret);
      // Never trusted past the credential's end. A session's end moves with use (idle lifetime),
      // but only orgs sees the use: keeping it half the time left makes a busy session ask orgs,
      // and so restart its idle clock, before that clock runs out.
      // (An entry deleted by a revocation while this lookup ran is aborted by the cache, not stored.)
      if (expiresAt) {
        const left = expiresAt.getTime() - Date.now();
        options.ttl = Math.max(1, Math.min(ttlMs, context.kind === 'session' ? left / 2 : left));
      }
      return credential;
    },
  });
  const subscription = nc.subscribe(AUTH_REVOKED_SUBJECT, {
    callback: (err, msg) => {
      if (err) return log.error({ err }, 'revocations subscription failed');
      try {
        for (const hash of (JSON.parse(msg.string()) as { hashes: string[] }).hashes) cache.delete(hash);
      } catch (e) {
        log.warn({ err: e }, 'revocation message not understood');
      }
    },
  });
  return {
    async resolve(kind: Kind, secret: string): Promise<Credential | undefined> {
      if (ttlMs <= 0) return (await lookup(kind, secret)).credential;
      return cache.fetch(credentialHash(secret), { context: { kind, secret } });
    },
    /** Resolves once the revocation subscription is registered with the server. */
    ready: () => nc.flush(),
    close: () => subscription.unsubscribe(),
  };
}

export type Authenticator = ReturnType<typeof makeAuthenticator>;
