import { randomBytes } from 'node:crypto';
import { describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestUser } from '@quire/orgs/testing';
import { connectNats } from '@quire/service-kit/nats';
import { Limiter, VIEW_MS } from '../src/limiter.ts';
import { startGateway, type Gateway } from './harness.ts';

// Attacks on the request limits: a second replica, respelled headers, sprayed tokens.

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

// Counts live in fixed one-minute windows: each test starts well inside one, so that no count
// is reset halfway through it.
async function inWindow() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}

type Replicas = { g: Gateway; second: FastifyInstance };

const it = test.extend<{ limitedReplicas: Replicas; replicas: Replicas; user: TestUser; limiters: { a: Limiter; b: Limiter; bucket: string } }>({
  // Its own gateway, one per process: its limits. And a second replica: its own process state, the same NATS bucket.
  limitedReplicas: [
    async ({}, use) => {
      const g = await startGateway({ RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_ADDRESS_PER_MINUTE: '4' });
      await use({ g, second: await g.replica() });
      await g.stop();
    },
    { scope: 'file' },
  ],
  /** The replicas, once up, at the start of a window. */
  replicas: async ({ limitedReplicas }, use) => {
    await inWindow();
    await use(limitedReplicas);
  },
  /** A new user: a token no test has spent calls of. */
  user: async ({ limitedReplicas: { g } }, use) => use(await g.orgs.user('limited')),
  // Two replicas' limiters over a NATS bucket of the test's own.
  limiters: async ({ limitedReplicas: { g } }, use) => {
    const nc = await connectNats(NATS_URL, 'limiter-test', { info: () => {} });
    const bucket = `test_${randomBytes(6).toString('hex')}`;
    const [a, b] = await Promise.all([Limiter.shared(nc, bucket, g.app.log), Limiter.shared(nc, bucket, g.app.log)]);
    await inWindow();
    await use({ a, b, bucket });
    await a.drop();
    await nc.close();
  },
});

let address = 0;
/** A client address of its own for each test: counts of one test do not spill into the next. */
const newAddress = () => `198.51.100.${++address}`;

const get = (app: FastifyInstance, remoteAddress: string, authorization?: string) =>
  app.inject({ method: 'GET', url: '/v1/user', remoteAddress, headers: authorization === undefined ? {} : { authorization } });

describe('rate limits', () => {
  it('counts a token once across gateway replicas and however its header is spelled', async ({ replicas: { g, second }, user }) => {
    const from = newAddress();
    const spellings = [`Bearer ${user.token}`, `bearer ${user.token}`, `BEARER   ${user.token}`, `Bearer\t${user.token}`, ` Bearer ${user.token} `, `Bearer ${user.token}`];
    for (const [i, header] of spellings.entries()) {
      // Replicas share a token's count every VIEW_MS: past that, each sees the other's requests.
      await sleep(VIEW_MS + 50);
      const res = await get(i % 2 ? second : g.app, from, header);
      expect(res.statusCode, `${i}: ${res.body}`).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(5 - i));
    }
    await sleep(VIEW_MS + 50);
    for (const app of [g.app, second]) {
      const limited = await get(app, from, `bearer  ${user.token}`);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: { code: 429, message: expect.stringMatching(/Rate limit exceeded: 6 requests per minute/) } });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it("answers a token's requests from memory between shares, and loses none of them", async ({ replicas: { g, second } }) => {
    const from = newAddress();
    const other = await g.orgs.user('burst');
    const header = `Bearer ${other.token}`;
    // A burst on one replica: exact counts there, one compare-and-set for all but the first.
    const burst = [];
    for (let i = 0; i < 4; i++) burst.push(await get(g.app, from, header));
    expect(burst.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['5', '4', '3', '2']);
    await sleep(VIEW_MS * 3);
    // The other replica sees all four once they are shared, then the limit holds on both.
    expect((await get(second, from, header)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await get(second, from, header)).statusCode).toBe(200);
    await sleep(VIEW_MS * 3);
    for (const app of [g.app, second]) expect((await get(app, from, header)).statusCode).toBe(429);
  });

  it('counts calls without a token by address, on every replica', async ({ replicas: { g, second } }) => {
    const from = newAddress();
    for (let i = 0; i < 4; i++) expect((await get(i % 2 ? second : g.app, from)).statusCode).toBe(401);
    expect((await get(g.app, from)).statusCode).toBe(429);
    expect((await get(second, from)).statusCode).toBe(429);
    expect((await get(g.app, newAddress())).statusCode).toBe(401);
  });

  it('counts failed tokens against the address, so sprayed tokens stop before orgs is asked', async ({ replicas: { g, second } }) => {
    const from = newAddress();
    const other = await g.orgs.user('neighbour');
    // A token used successfully from this address keeps working while its neighbour guesses.
    expect((await get(g.app, from, `Bearer ${other.token}`)).statusCode).toBe(200);
    expect((await get(second, from, `Bearer ${other.token}`)).statusCode).toBe(200);
    const guess = () => `Bearer qt_${randomBytes(16).toString('hex')}`;
    for (let i = 0; i < 4; i++) expect((await get(i % 2 ? second : g.app, from, guess())).statusCode).toBe(401);
    for (const app of [g.app, second]) {
      const refused = await get(app, from, guess());
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toMatch(/Rate limit exceeded: 4 requests per minute/);
    }
    expect((await get(g.app, from, `Bearer ${other.token}`)).statusCode).toBe(200);
    expect((await get(second, from, `Bearer ${other.token}`)).statusCode).toBe(200);
    // Another address still has its own count.
    expect((await get(g.app, newAddress(), guess())).statusCode).toBe(401);
  });

  it('leaves health and readiness unlimited', async ({ replicas: { g } }) => {
    const from = newAddress();
    for (let i = 0; i < 6; i++) expect((await g.app.inject({ method: 'GET', url: '/healthz', remoteAddress: from })).statusCode).toBe(200);
  });
});

describe('Limiter', () => {
  it('loses no count when replicas hit one key at once (compare-and-set)', async ({ limiters: { a, b } }) => {
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).hit('signin:account:ada@example.com', 20, 60_000)));
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(results.filter((r) => !r.allowed)).toHaveLength(4);
    expect(await a.peek('signin:account:ada@example.com', 20, 60_000)).toMatchObject({ count: 24, allowed: false, remaining: 0 });
  });

  it('shares cached hits of several replicas without losing one, and refuses past the limit once shared', async ({ limiters: { a, b } }) => {
    const key = `token:${randomBytes(6).toString('hex')}`;
    const hits = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).hitCached(key, 10, 60_000)));
    // Each replica admits at most the limit from its own view.
    for (const r of [a, b]) expect(hits.filter((h, i) => (i % 2 ? a : b) === r && h.allowed).length).toBeLessThanOrEqual(10);
    await sleep(VIEW_MS * 3);
    expect(await a.peek(key, 10, 60_000)).toMatchObject({ count: 30, allowed: false });
    expect((await b.hitCached(key, 10, 60_000)).allowed).toBe(false);
  });

  it('keeps a view fresh under steady use: after the first hit, none waits for NATS', async ({ limiters: { a, b } }) => {
    const key = `token:${randomBytes(6).toString('hex')}`;
    // `count` is the way to NATS of a hit whose view is missing or old.
    const toNats = vi.spyOn(a as unknown as { count: (...args: unknown[]) => Promise<unknown> }, 'count');
    // A step that took over VIEW_MS / 4 (four times a quiet step) means the process stalled
    // (another suite on the same cores): no timer, the flush's included, ran on time then, so
    // its view may have aged.
    let stalls = 0;
    for (let i = 0; i < 120; i++) {
      const started = performance.now();
      await a.hitCached(key, 1_000, 60_000);
      await sleep(5);
      if (performance.now() - started > VIEW_MS / 4) stalls++;
    }
    expect(toNats.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(toNats.mock.calls.length, `${stalls} stalled steps`).toBeLessThanOrEqual(1 + stalls);
    toNats.mockRestore();
    await sleep(VIEW_MS);
    expect(await b.peek(key, 1_000, 60_000)).toMatchObject({ count: 120 });
  });

  it('sends the hits it admitted last when it closes, before its NATS connection is drained', async ({ limitedReplicas: { g }, limiters: { a, bucket } }) => {
    const own = await connectNats(NATS_URL, 'limiter-closing', { info: () => {} });
    const warnings: unknown[] = [];
    const closing = await Limiter.shared(own, bucket, { ...g.app.log, warn: (...args: unknown[]) => warnings.push(args) } as typeof g.app.log);
    const key = `token:${randomBytes(6).toString('hex')}`;
    // The first hit reads the shared count; the next ones wait in this replica's view for VIEW_MS.
    for (let i = 0; i < 5; i++) await closing.hitCached(key, 100, 60_000);
    await closing.close();
    await own.drain();
    expect(await a.peek(key, 100, 60_000)).toMatchObject({ count: 5 });
    expect(warnings).toEqual([]);
  });

  it('keeps windows of different lengths apart and refuses windows longer than its bucket keeps', async ({ limiters: { a, b } }) => {
    await a.hit('k', 5, 1_000);
    expect((await b.peek('k', 5, 60_000)).count).toBe(0);
    await expect(a.hit('k', 5, 2 * 60 * 60 * 1000)).rejects.toThrow(RangeError);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
