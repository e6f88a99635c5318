import type { AddressInfo } from 'node:net';
import type { TestUser } from '@quire/orgs/testing';
import { reservedPort } from '@quire/service-kit/testing';
import { describe, expect, test } from 'vitest';
import { startGateway } from './harness.ts';
import { API_NAME, send, startProxy, type Answer } from './nginx.ts';

// The gateway behind the example TLS proxy (infra/proxy/nginx.conf, run by the real nginx) that it
// trusts: each client, on a loopback address of its own, has limits of its own; and what a client
// writes in X-Forwarded-For, through the proxy or straight to the gateway, buys it no new count.

const LIMIT = 5;
const SIGN_IN_FAILURES = 3;
const SETTINGS = {
  QUIRE_PUBLIC_URL: `https://${API_NAME}`,
  RATE_LIMIT_ADDRESS_PER_MINUTE: String(LIMIT),
  SIGN_IN_FAILURES_PER_ADDRESS: String(SIGN_IN_FAILURES),
};
// A request without a token that answers 200 (a sign-in page's): counted against the client's address.
const OPEN_PATH = '/auth/providers?email=someone%40example.test';

/** A gateway listening on 127.0.0.1 with this TRUST_PROXY (unset: none), and the example proxy in front of it. */
async function gatewayBehindProxy(trustProxy?: string) {
  const g = await startGateway(trustProxy === undefined ? SETTINGS : { ...SETTINGS, TRUST_PROXY: trustProxy });
  await g.app.listen({ host: '127.0.0.1', port: 0 });
  const direct = `http://127.0.0.1:${(g.app.server.address() as AddressInfo).port}`;
  // No reader in these tests: its server name points at a closed port.
  const proxy = await startProxy({ gateway: Number(new URL(direct).port), reader: await reservedPort() });
  return { g, proxy, direct };
}

type Running = Awaited<ReturnType<typeof gatewayBehindProxy>>;
type Proxies = { trusting: Running; trustingAll: Running; trustingNobody: Running };

const it = test.extend<{ proxiedGateways: Proxies; proxies: Proxies; user: TestUser }>({
  // Gateways of their own, one per process: their rate limits, and nginx in front of each.
  proxiedGateways: [
    async ({}, use) => {
      // nginx connects from 127.0.0.1; the clients from 127.0.0.2 and up.
      const running = { trusting: await gatewayBehindProxy('127.0.0.1'), trustingAll: await gatewayBehindProxy('true'), trustingNobody: await gatewayBehindProxy() };
      await use(running);
      for (const { proxy, g } of Object.values(running)) {
        await proxy.stop();
        await g.stop();
      }
    },
    { scope: 'file' },
  ],
  // Counts live in fixed one-minute windows: each test starts well inside one, its gateways up.
  proxies: async ({ proxiedGateways }, use) => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
    await use(proxiedGateways);
  },
  /** A new user (no organization needed to sign in). */
  user: async ({ proxiedGateways }, use) => use(await proxiedGateways.trusting.g.orgs.user('proxied')),
});

let last = 1;
/** A client address of its own for each client of each test. */
const client = () => `127.0.0.${++last}`;

const through = (running: Running, from: string, headers: Record<string, string> = {}) => running.proxy.send(from, running.proxy.url(API_NAME, OPEN_PATH), { headers });

function expectLimited(res: Answer) {
  expect(res.status, res.body).toBe(429);
  expect(JSON.parse(res.body)).toEqual({ error: { code: 429, message: expect.stringMatching(/Rate limit exceeded: 5 requests per minute/) } });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('behind the example proxy', () => {
  it('limits each client by its own address: A is refused past its limit while B is still served', async ({ proxies: { trusting } }) => {
    const [a, b] = [client(), client()];
    for (let i = 0; i < LIMIT; i++) {
      const res = await through(trusting, a);
      expect(res.status, res.body).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1 - i));
      // X-Forwarded-Proto is believed: the answer knows it went out over HTTPS.
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
    expectLimited(await through(trusting, a));
    const served = await through(trusting, b);
    expect(served.status).toBe(200);
    expect(served.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('throttles failed sign-ins by client: A is locked out, B signs in to the same account', async ({ proxies: { trusting }, user }) => {
    const [a, b] = [client(), client()];
    const signIn = (from: string, password: string) =>
      trusting.proxy.send(from, trusting.proxy.url(API_NAME, '/auth/sign-in'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password }),
      });
    for (let i = 0; i < SIGN_IN_FAILURES; i++) expect((await signIn(a, 'not the password')).status).toBe(401);
    const locked = await signIn(a, user.password);
    expect(locked.status, locked.body).toBe(429);
    expect(JSON.parse(locked.body).error.message).toMatch(/Too many failed sign-ins/);
    const signedIn = await signIn(b, user.password);
    expect(signedIn.status, signedIn.body).toBe(204);
    expect(String(signedIn.headers['set-cookie'])).toMatch(/^__Host-quire_session=[^;]+;.*Secure/);
  });

  // The proxy writes the address it sees over any X-Forwarded-For the client sent. Were it to
  // append to it instead, the gateway trusting every hop would count each forged address anew.
  it('gives a client that forges X-Forwarded-For no new count, whether the gateway trusts the proxy or every hop', async ({ proxies: { trusting, trustingAll } }) => {
    for (const running of [trusting, trustingAll]) {
      const from = client();
      for (let i = 0; i < LIMIT; i++) expect((await through(running, from, { 'x-forwarded-for': `1.2.3.${i}` })).status).toBe(200);
      expectLimited(await through(running, from, { 'x-forwarded-for': '1.2.3.4' }));
    }
  });
});

describe('past the proxy', () => {
  it('counts a client that is not a trusted proxy by its connection, whatever X-Forwarded-* it sends', async ({ proxies: { trusting, trustingNobody } }) => {
    // A client beside the proxy on the gateway trusting it, and one on its very address on the gateway trusting nobody.
    for (const [running, from] of [
      [trusting, client()],
      [trustingNobody, '127.0.0.1'],
    ] as const) {
      for (let i = 0; i < LIMIT; i++) {
        const res = await send(from, `${running.direct}${OPEN_PATH}`, { headers: { 'x-forwarded-for': `198.51.100.${i}`, 'x-forwarded-proto': 'https' } });
        expect(res.status).toBe(200);
        expect(res.headers['strict-transport-security']).toBeUndefined();
      }
      expectLimited(await send(from, `${running.direct}${OPEN_PATH}`, { headers: { 'x-forwarded-for': '198.51.100.99' } }));
    }
  });
});
