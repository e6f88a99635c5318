import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { ResourceExhaustedError } from '@quire/service-kit';
import type { LimitResult, Limiter } from '../limiter.ts';
import { bearerToken } from './auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The gateway's shared counters (limiter.ts), for limits of its own such as sign-in throttling. */
    limiter: Limiter;
  }
}

export interface RateLimitOptions {
  limiter: Limiter;
  /** Requests per minute of one valid token. */
  perToken: number;
  /** Requests per minute of one address without a token, plus its failed authentications. */
  perAddress: number;
}

const WINDOW_MS = 60_000;
const UNLIMITED = new Set(['/healthz', '/readyz']);

/**
 * The API's request limits, checked at the start of every request, before authentication costs
 * orgs a call. A request without a token counts against its address. A request with a token
 * counts against that token (the parsed token, so `bearer  x` and `Bearer x` share one count);
 * when the token then fails authentication, the failure counts against the address too, and an
 * address over its limit cannot try more tokens until the window ends (tokens seen valid here
 * recently are exempt from that check, so one guesser behind a shared address does not lock out
 * its neighbours' working tokens). A token's count, taken on every request, is kept in memory and
 * shared with the other replicas every VIEW_MS / 2 (`Limiter.hitCached`).
 */
const rateLimit: FastifyPluginAsync<RateLimitOptions> = async (app, { limiter, perToken, perAddress }) => {
  app.decorate('limiter', limiter);
  const seenValid = new LRUCache<string, true>({ max: 10_000, ttl: 10 * WINDOW_MS });

  // The token's key, hashed once per request: the answer's hook reads it again.
  const tokenKeys = new WeakMap<FastifyRequest, string | undefined>();
  const tokenKey = (req: FastifyRequest) => {
    if (!tokenKeys.has(req)) tokenKeys.set(req, tokenKeyOf(req.headers.authorization));
    return tokenKeys.get(req);
  };

  app.addHook('onRequest', async (req, reply) => {
    if (UNLIMITED.has(req.url) || req.routeOptions.config?.unlimited) return;
    const address = `address:${req.ip}`;
    const key = tokenKey(req);
    if (key === undefined) return admit(reply, await limiter.hit(address, perAddress, WINDOW_MS));
    if (!seenValid.has(key)) admit(reply, await limiter.peek(address, perAddress, WINDOW_MS));
    admit(reply, await limiter.hitCached(key, perToken, WINDOW_MS));
  });

  // Before the answer leaves: the next request of this address already sees the count.
  app.addHook('onSend', async (req, reply, payload) => {
    const key = tokenKey(req);
    if (key === undefined || UNLIMITED.has(req.url)) return payload;
    if (reply.statusCode === 401) {
      seenValid.delete(key);
      await limiter.hit(`address:${req.ip}`, perAddress, WINDOW_MS);
    } else if (req.caller?.userId) seenValid.set(key, true);
    return payload;
  });
};

function tokenKeyOf(header: string | undefined): string | undefined {
  const token = bearerToken(header);
  return token === undefined ? undefined : `token:${createHash('sha256').update(token).digest('base64url')}`;
}

function admit(reply: FastifyReply, result: LimitResult): void {
  const resetSeconds = Math.ceil(result.resetMs / 1000);
  void reply.headers({ 'x-ratelimit-limit': result.limit, 'x-ratelimit-remaining': result.remaining, 'x-ratelimit-reset': resetSeconds });
  if (result.allowed) return;
  void reply.header('retry-after', resetSeconds);
  throw new ResourceExhaustedError(`Rate limit exceeded: ${result.limit} requests per minute; retry in ${resetSeconds} s`, 'rate_limited');
}

// fastify-plugin: the hooks apply to every route of the app, not to a child scope.
export default fp(rateLimit);
