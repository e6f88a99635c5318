import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { LRUCache } from 'lru-cache';
import { UnauthenticatedError, type Caller } from '@quire/service-kit';
import type { Services } from '../clients.ts';

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

/**
 * Resolves `Authorization: Bearer` through `orgs.Authenticate`. Answers are cached for a short
 * while and concurrent lookups of one token share a single call, so a busy client costs orgs
 * one call per token per TTL, not one per request. Registered in the /v1 scope only.
 */
const auth: FastifyPluginAsync<{ services: Services; ttlMs: number }> = async (app, { services, ttlMs }) => {
  const cache = new LRUCache<string, string>({
    max: 10_000,
    ttl: Math.max(ttlMs, 1),
    fetchMethod: async (token) => (await services.orgs.authenticate({ token }, {})).userId,
  });

  app.decorateRequest('caller', undefined as unknown as FastifyRequestCaller);

  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config.public) return;
    const match = BEARER.exec(req.headers.authorization ?? '');
    if (!match) throw new UnauthenticatedError();
    const token = match[1]!;
    const userId = ttlMs > 0 ? await cache.fetch(token) : (await services.orgs.authenticate({ token }, { requestId: req.id })).userId;
    if (!userId) throw new UnauthenticatedError('The access token is not valid');
    req.caller = { userId, requestId: req.id };
  });
};

// fastify-plugin: the hook belongs to the scope that registers this (/v1), not to a child of it.
export default fp(auth);

type FastifyRequestCaller = Caller & { userId: string };
