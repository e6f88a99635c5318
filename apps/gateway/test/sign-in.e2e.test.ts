import { describe, expect, vi } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Role } from '@quire/policy';
import type { TestUser } from '@quire/orgs/testing';
import { buildApp } from '../src/app.ts';
import { bearer, expectError, ok, type Gateway, type OwnGateway } from './harness.ts';
import { ownGateway, test as base } from './fixtures.ts';

// Browser sessions, passwords and the CSRF rules, through the gateway over the real
// orgs service, PostgreSQL and NATS.

const COOKIE = 'quire_session';
const ORIGIN = 'http://127.0.0.1:8080';

async function signIn(app: FastifyInstance, email: string, password: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password }, headers });
  const cookie = res.cookies.find((c) => c.name === COOKIE);
  return { res, session: cookie?.value, cookie };
}

const withSession = (session: string, extra: Record<string, string> = {}) => ({ cookie: `${COOKIE}=${session}`, ...extra });

async function csrfOf(app: FastifyInstance, session: string): Promise<string> {
  return (await ok(app.inject({ method: 'GET', url: '/auth/session', headers: withSession(session) }))).csrfToken;
}

const test = base.extend<{
  unlimited: Gateway;
  short: OwnGateway;
  ada: TestUser;
  dee: TestUser;
  signedIn: { session: string; csrf: string; write: (headers: Record<string, string>) => Promise<LightMyRequestResponse> };
}>({
  // Its own gateway: sign-ins and sessions above the default rate limit.
  unlimited: ownGateway({ RATE_LIMIT_PER_MINUTE: '100000' }),
  // Its own services: orgs with short session lifetimes, and no other suite's load (a timing).
  short: ownGateway({ RATE_LIMIT_PER_MINUTE: '100000' }, { own: true, orgsEnv: { SESSION_IDLE_TIMEOUT_MS: '1500', SESSION_MAX_AGE_MS: '4000' } }),
  ada: async ({ unlimited: g }, use) => {
    const ada = await g.orgs.user('ada');
    await g.orgs.organization(ada);
    await use(ada);
  },
  dee: async ({ short }, use) => use(await short.orgs.user('dee')),
  // A browser session of ada's, its CSRF token, and a write (a new API token) with given headers.
  signedIn: async ({ unlimited: g, ada }, use) => {
    const session = (await signIn(g.app, ada.email, ada.password)).session!;
    const csrf = await csrfOf(g.app, session);
    await use({ session, csrf, write: (headers) => g.app.inject({ method: 'POST', url: '/v1/user/tokens', payload: { label: 'by cookie' }, headers }) });
  },
});

describe('POST /auth/sign-in', () => {
  test('answers 204 with an HttpOnly, SameSite=Lax session cookie that every /v1 operation accepts', async ({ unlimited: g, ada }) => {
    const { res, session, cookie } = await signIn(g.app, ada.email, ada.password);
    expect(res.statusCode, res.body).toBe(204);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie!.secure).toBeFalsy(); // the public URL is http here; see the HTTPS case below
    expect(new Date(cookie!.expires!).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3_600_000);
    const me = await ok(g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(session!) }));
    expect(me).toMatchObject({ id: ada.id, email: ada.email });
    const info = await ok(g.app.inject({ method: 'GET', url: '/auth/session', headers: withSession(session!) }));
    expect(info).toEqual({ user: expect.objectContaining({ id: ada.id }), csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
  });

  test('gives a new session id at every sign-in and ends the one the browser had (no fixation)', async ({ unlimited: g, ada }) => {
    const first = (await signIn(g.app, ada.email, ada.password)).session!;
    const second = (await signIn(g.app, ada.email, ada.password, withSession(first))).session!;
    expect(second).not.toBe(first);
    expectError(await g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(first) }), 401);
    await ok(g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(second) }));
    // A value an attacker planted (never issued) is replaced as well, never adopted.
    const planted = 'qs_attacker-chosen-value';
    const third = (await signIn(g.app, ada.email, ada.password, withSession(planted))).session!;
    expect(third).not.toBe(planted);
  });

  // On the file's own services: a timing, which other suites' calls to the shared orgs would skew.
  test('answers an unknown email and a wrong password alike, in the same time', async ({ short: g, dee }) => {
    const unknown = () => signIn(g.app, 'nobody-here@example.com', 'whatever password');
    const wrong = () => signIn(g.app, dee.email, 'not the password');
    const [u, w] = [await unknown(), await wrong()];
    expect(u.res.statusCode).toBe(401);
    expect(w.res.statusCode).toBe(401);
    expect(u.res.body).toBe(w.res.body);
    expect(u.session ?? w.session).toBeUndefined();
    // Tries of each kind interleaved, so that the machine's load falls on both alike; the median
    // of each. Both verify one argon2id hash, so they differ by noise only.
    const timed = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      await f();
      return performance.now() - t;
    };
    const us: number[] = [];
    const ws: number[] = [];
    for (let i = 0; i < 11; i++) {
      if (i % 2) ws.push(await timed(wrong));
      us.push(await timed(unknown));
      if (!(i % 2)) ws.push(await timed(wrong));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const [mu, mw] = [median(us), median(ws)];
    // Skipping the hash (or a cheaper one) for an unknown email would make it answer in a few
    // percent of the wrong password's time; a ratio, not a gap in milliseconds, so that a loaded
    // machine, which slows both, does not fail the test.
    expect(mu / mw, `unknown ${mu.toFixed(1)} ms, wrong ${mw.toFixed(1)} ms`).toBeGreaterThan(0.6);
    expect(mu / mw, `unknown ${mu.toFixed(1)} ms, wrong ${mw.toFixed(1)} ms`).toBeLessThan(1 / 0.6);
    expect(Math.min(mu, mw)).toBeGreaterThan(5);
  });

  test('refuses a megabyte password with 400 before any hashing: no failure counted, nothing asked of orgs', async ({ unlimited: g }) => {
    const victim = await g.orgs.user('huge-password');
    const org = await g.orgs.organization(victim, [], 'Huge');
    const huge = 'x'.repeat(1_000_000); // under the body limit, so the schema answers rather than the limit
    expectError(await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: victim.email, password: huge } }), 400, /password/);
    expect((await g.app.limiter.peek(`signin:account:${victim.email}`, 10, 15 * 60_000)).count).toBe(0);
    // A wrong password of ordinary length reaches orgs and is audited; the megabyte one was not.
    expectError(await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: victim.email, password: 'wrong password' } }), 401);
    const failed = async () => (await g.orgs.audit(org.id, 1)).filter((e) => e.action === 'user.sign_in_failed');
    await vi.waitFor(async () => expect(await failed()).toHaveLength(1), { timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await failed()).toHaveLength(1);
  });

  test('refuses bad input with the field named, and a sign-in posted from another origin', async ({ unlimited: g, ada }) => {
    expectError(await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: ada.email } }), 400, /password/);
    expectError(await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: ada.email, password: 'x'.repeat(257) } }), 400, /password/);
    expectError(await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: ada.email, password: ada.password, extra: 1 } }), 400);
    const foreign = await signIn(g.app, ada.email, ada.password, { origin: 'https://evil.example' });
    expectError(foreign.res, 403, /CSRF/);
    expect(foreign.session).toBeUndefined();
    const sameOrigin = await signIn(g.app, ada.email, ada.password, { origin: ORIGIN });
    expect(sameOrigin.res.statusCode).toBe(204);
  });
});

describe('CSRF', () => {
  test('refuses a write by cookie without the x-csrf-token header, or with another one', async ({ unlimited: g, ada, signedIn: { session, write } }) => {
    expectError(await write(withSession(session)), 403, /x-csrf-token/);
    expectError(await write(withSession(session, { 'x-csrf-token': 'A'.repeat(43) })), 403, /x-csrf-token/);
    const other = (await signIn(g.app, ada.email, ada.password)).session!;
    expectError(await write(withSession(session, { 'x-csrf-token': await csrfOf(g.app, other) })), 403, /x-csrf-token/);
  });

  test('refuses a write by cookie from a foreign Origin or Referer, even with the token', async ({ signedIn: { session, csrf, write } }) => {
    expectError(await write(withSession(session, { 'x-csrf-token': csrf, origin: 'https://evil.example' })), 403, /CSRF/);
    expectError(await write(withSession(session, { 'x-csrf-token': csrf, origin: 'null' })), 403, /CSRF/);
    expectError(await write(withSession(session, { 'x-csrf-token': csrf, referer: 'https://evil.example/page' })), 403, /CSRF/);
  });

  test('lets a write by cookie through with the token from this origin, reads without it, and bearer calls without either', async ({
    unlimited: g,
    ada,
    signedIn: { session, csrf, write },
  }) => {
    await ok(write(withSession(session, { 'x-csrf-token': csrf, origin: ORIGIN })), 201);
    await ok(g.app.inject({ method: 'GET', url: '/v1/orgs', headers: withSession(session) }));
    await ok(write({ ...bearer(ada.token), origin: 'https://evil.example' }), 201);
  });

  test('checks sign-out and sign-out-everywhere too', async ({ unlimited: g, ada }) => {
    const s = (await signIn(g.app, ada.email, ada.password)).session!;
    expectError(await g.app.inject({ method: 'POST', url: '/auth/sign-out', headers: withSession(s) }), 403, /CSRF/);
    expectError(await g.app.inject({ method: 'POST', url: '/auth/sign-out-everywhere', headers: withSession(s) }), 403, /CSRF/);
    await ok(g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(s) }));
  });
});

describe('sign out', () => {
  test('ends this session at once (the cached answer too) and clears the cookie', async ({ unlimited: g, ada }) => {
    const s = (await signIn(g.app, ada.email, ada.password)).session!;
    await ok(g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(s) })); // cached now
    const out = await g.app.inject({ method: 'POST', url: '/auth/sign-out', headers: withSession(s, { 'x-csrf-token': await csrfOf(g.app, s) }) });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === COOKIE)?.value).toBe('');
    expectError(await g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(s) }), 401);
    expectError(await g.app.inject({ method: 'GET', url: '/auth/session', headers: withSession(s) }), 401);
    // Without a session it is a no-op.
    expect((await g.app.inject({ method: 'POST', url: '/auth/sign-out' })).statusCode).toBe(204);
  });

  test("everywhere ends every session of the user and no one else's; tokens keep working", async ({ unlimited: g, ada }) => {
    const bob = await g.orgs.user('bob');
    const [a1, a2, b1] = [
      (await signIn(g.app, ada.email, ada.password)).session!,
      (await signIn(g.app, ada.email, ada.password)).session!,
      (await signIn(g.app, bob.email, bob.password)).session!,
    ];
    for (const s of [a1, a2, b1]) await ok(g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(s) }));
    expect((await g.app.inject({ method: 'POST', url: '/auth/sign-out-everywhere', headers: withSession(a1, { 'x-csrf-token': await csrfOf(g.app, a1) }) })).statusCode).toBe(204);
    for (const s of [a1, a2]) expectError(await g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(s) }), 401);
    await ok(g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(b1) }));
    await ok(g.app.inject({ method: 'GET', url: '/v1/user', headers: bearer(ada.token) }));
    expectError(await g.app.inject({ method: 'POST', url: '/auth/sign-out-everywhere' }), 401);
    expectError(await g.app.inject({ method: 'GET', url: '/auth/session' }), 401);
  });
});

describe('POST /auth/password', () => {
  test("changes the password after checking the current one, and ends the user's other sessions", async ({ unlimited: g }) => {
    const cy = await g.orgs.user('cy');
    const [here, elsewhere] = [(await signIn(g.app, cy.email, cy.password)).session!, (await signIn(g.app, cy.email, cy.password)).session!];
    const headers = withSession(here, { 'x-csrf-token': await csrfOf(g.app, here) });
    const change = (payload: object, h = headers) => g.app.inject({ method: 'POST', url: '/auth/password', payload, headers: h });
    expectError(await change({ currentPassword: 'wrong one', newPassword: 'a new long password' }), 400, /currentPassword/);
    expectError(await change({ currentPassword: cy.password, newPassword: 'short' }), 400, /newPassword/);
    expectError(await change({ currentPassword: cy.password }), 400, /newPassword/);
    expectError(await change({ currentPassword: cy.password, newPassword: 'a new long password' }, withSession(here)), 403, /x-csrf-token/);
    expectError(
      await g.app.inject({ method: 'POST', url: '/auth/password', payload: { currentPassword: cy.password, newPassword: 'a new long password' }, headers: bearer(cy.token) }),
      401,
    );
    expect((await change({ currentPassword: cy.password, newPassword: 'a new long password' })).statusCode).toBe(204);
    expect((await signIn(g.app, cy.email, cy.password)).res.statusCode).toBe(401);
    expect((await signIn(g.app, cy.email, 'a new long password')).res.statusCode).toBe(204);
    await ok(g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(here) }));
    expectError(await g.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(elsewhere) }), 401);
  });
});

describe('session lifetimes', () => {
  const me = (short: Gateway, s: string) => short.app.inject({ method: 'GET', url: '/v1/user', headers: withSession(s) });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test('ends a session left unused for the idle lifetime', async ({ short, dee }) => {
    const s = (await signIn(short.app, dee.email, dee.password)).session!;
    await ok(me(short, s));
    await sleep(1800);
    expectError(await me(short, s), 401);
  });

  test('keeps a session in use past the idle lifetime, but not past the absolute one', async ({ short, dee }) => {
    const s = (await signIn(short.app, dee.email, dee.password)).session!;
    const start = Date.now();
    while (Date.now() - start < 3500) {
      expect((await me(short, s)).statusCode, `at ${Date.now() - start} ms`).toBe(200);
      await sleep(400);
    }
    await sleep(Math.max(0, 4100 - (Date.now() - start)));
    expectError(await me(short, s), 401);
  });
});

describe('behind HTTPS', () => {
  test('marks the cookie Secure with the __Host- prefix', async ({ unlimited: g }) => {
    // A gateway configured for HTTPS, over the same services.
    const tls = { app: await buildApp({ ...g.config, QUIRE_PUBLIC_URL: 'https://docs.example.com' }, g.services) };
    try {
      const u = await g.orgs.user('eve');
      const res: LightMyRequestResponse = await tls.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: u.email, password: u.password } });
      expect(res.statusCode).toBe(204);
      expect(res.cookies[0]).toMatchObject({ name: '__Host-quire_session', secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
      expectError(
        await tls.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: u.email, password: u.password }, headers: { origin: 'http://docs.example.com' } }),
        403,
        /CSRF/,
      );
    } finally {
      await tls.app.close();
    }
  });
});

describe('guests and members alike', () => {
  test('a guest member signs in like anyone', async ({ unlimited: g }) => {
    const guest = await g.orgs.user('guest');
    const org = await g.orgs.organization(await g.orgs.user('owner'), [[guest, Role.ROLE_GUEST]]);
    const s = (await signIn(g.app, guest.email, guest.password)).session!;
    await ok(g.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers: withSession(s) }));
  });
});
