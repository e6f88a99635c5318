import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@quire/policy';
import { reservedPort, TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import type { TestUser } from '@quire/orgs/testing';
import { browser, samlIdentityProvider, startOidcProvider } from '@quire/orgs/testing/idp';
import { bearer, expectError, ok, type Gateway } from './harness.ts';
import { gatewayWithTenant } from './fixtures.ts';

// OIDC and SAML sign-in through the gateway, listening on loopback, against an OpenID
// provider and a SAML identity provider running in the test, over the real services.

const domain = `e2e-${Date.now().toString(36)}.example`;
let g: Gateway, owner: TestUser, editor: TestUser, orgId: string;
let base: string;

beforeAll(async () => {
  const port = await reservedPort();
  base = `http://127.0.0.1:${port}`;
  ({ g, owner, editor, orgId } = await gatewayWithTenant(
    { QUIRE_PUBLIC_URL: base, RATE_LIMIT_PER_MINUTE: '100000', QUIRE_LINK_SECRET: 'test-link-secret-0123456789' },
    { editor: Role.ROLE_EDIT },
  ));
  await g.app.listen({ port, host: '127.0.0.1' });
  await ok(g.call(owner, 'PATCH', `/v1/orgs/${orgId}`, { emailDomains: [domain] }));
});
afterAll(() => g?.stop());

type Entry = { actor: string | null; target: unknown; details: Record<string, unknown> };

/** The organization's audit entries of an action that `which` keeps, once the events consumer has written `atLeast`. */
async function audited(action: string, atLeast: number, which: (e: Entry) => boolean) {
  for (let i = 0; ; i++) {
    const { items } = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/audit-log?action=${action}`));
    const kept = (items as Entry[]).filter(which);
    if (kept.length >= atLeast || i >= 50) return kept;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `GET /v1/user` with the session cookie the browser holds. */
async function currentUser(b: ReturnType<typeof browser>) {
  const res = await b.request(`${base}/v1/user`);
  return { status: res.status, body: (await res.json()) as { email?: string } };
}

describe('OIDC providers (/v1/orgs/{organizationId}/oidc)', () => {
  it('are managed by admins: 201 with the redirect URI to register, the secret never answered; bad input and others refused', async () => {
    const created = await g.call(owner, 'POST', `/v1/orgs/${orgId}/oidc`, { label: 'Google', issuer: 'https://accounts.example', clientId: 'quire', clientSecret: 's3cret' });
    expect(created.statusCode, created.body).toBe(201);
    const p = created.json();
    expect(created.headers.location).toBe(p.urls.location);
    expect(p).toEqual({
      object: 'oidc-provider',
      id: p.id,
      label: 'Google',
      issuer: 'https://accounts.example',
      clientId: 'quire',
      defaultRole: 'read',
      createdAt: expect.any(String),
      service: { redirectURL: `${base}/auth/oidc/${p.id}/callback`, startURL: `${base}/auth/oidc/${p.id}/start` },
      urls: { location: `${base}/v1/orgs/${orgId}/oidc/${p.id}` },
    });
    expect(await ok(g.call(owner, 'PATCH', `/v1/orgs/${orgId}/oidc/${p.id}`, { defaultRole: 'edit', clientSecret: 'other' }))).toMatchObject({ defaultRole: 'edit' });
    const list = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/oidc`));
    expect(list.items.map((x: { id: string }) => x.id)).toEqual([p.id]);
    expect(JSON.stringify(list)).not.toMatch(/s3cret|other/);

    expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/oidc`, { label: 'X', issuer: 'not a url', clientId: 'a', clientSecret: 'b' }), 400, /issuer/);
    expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/oidc`, { label: 'X', issuer: 'https://a.example', clientId: 'a' }), 400, /clientSecret/);
    expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/oidc`, { label: 'x'.repeat(31), issuer: 'https://a.example', clientId: 'a', clientSecret: 'b' }), 400, /label/);
    expectError(await g.call(editor, 'POST', `/v1/orgs/${orgId}/oidc`, { label: 'X', issuer: 'https://a.example', clientId: 'a', clientSecret: 'b' }), 403);
    expectError(await g.call(editor, 'GET', `/v1/orgs/${orgId}/oidc/${p.id}`), 403);
    expectError(await g.call(null, 'GET', `/v1/orgs/${orgId}/oidc`), 401);
    const stranger = await g.orgs.user('stranger');
    const otherOrg = await g.orgs.organization(stranger);
    expectError(await g.call(stranger, 'GET', `/v1/orgs/${otherOrg.id}/oidc/${p.id}`), 404);
    expectError(await g.call(stranger, 'DELETE', `/v1/orgs/${otherOrg.id}/oidc/${p.id}`), 404);
    expect((await g.call(owner, 'DELETE', `/v1/orgs/${orgId}/oidc/${p.id}`)).statusCode).toBe(204);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/oidc/${p.id}`), 404);
  });
});

describe('OIDC sign-in', () => {
  let op: Awaited<ReturnType<typeof startOidcProvider>>;
  let providerId: string;
  let start: string;
  beforeAll(async () => {
    // The redirect URI names the provider, so it is made first and pointed at the OP after.
    const p = await ok(
      g.call(owner, 'POST', `/v1/orgs/${orgId}/oidc`, { label: 'Test OP', issuer: 'https://placeholder.example', clientId: 'x', clientSecret: 'x', defaultRole: 'comment' }),
      201,
    );
    op = await startOidcProvider(p.service.redirectURL, TEST_PRIVATE_HOST);
    await ok(g.call(owner, 'PATCH', `/v1/orgs/${orgId}/oidc/${p.id}`, { issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret }));
    providerId = p.id;
    start = p.service.startURL;
  });
  afterAll(() => op?.stop());

  it('goes through the provider and back, ending with a session that works on GET /v1/user', async () => {
    const email = `ada@${domain}`;
    op.signInAs({ email, email_verified: true, name: 'Ada OIDC' });
    const b = browser();
    const { stoppedAt, response } = await b.follow(start, (next) => next.href === `${base}/`);
    expect(stoppedAt?.href).toBe(`${base}/`);
    expect(response.status).toBe(303);
    expect(response.headers.getSetCookie().join('\n')).toMatch(/quire_session=[^;]+;.*HttpOnly/i);
    expect(b.jar.has('quire_oidc')).toBe(false);
    expect(await currentUser(b)).toMatchObject({ status: 200, body: { email } });

    expect(await audited('user.signed_in', 1, (e) => e.details.method === 'oidc')).toHaveLength(1);
  });

  it('refuses a callback without the state cookie, with a forged one, and an unverified email, and issues no session', async () => {
    op.signInAs({ email: `bob@${domain}`, email_verified: true });
    // The callback reached from a browser that did not start the sign-in (login CSRF).
    const starter = browser();
    const { stoppedAt } = await starter.follow(start, (next) => next.pathname.endsWith('/callback'));
    const stranger = browser();
    let res = await stranger.request(stoppedAt!.href);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/state/);
    // A state cookie the gateway did not sign.
    const forged = Buffer.from(JSON.stringify({ p: providerId, state: stoppedAt!.searchParams.get('state'), nonce: 'n', verifier: 'v' })).toString('base64url');
    res = await stranger.request(stoppedAt!.href, { headers: { cookie: `quire_oidc=${forged}.9999999999.${'0'.repeat(64)}` } });
    expect(res.status).toBe(400);

    op.signInAs({ email: `unverified@${domain}`, email_verified: false });
    const b = browser();
    const { response } = await b.follow(start, (next) => next.href === `${base}/`);
    expect(response.status).toBe(403);
    expect(b.jar.has('quire_session')).toBe(false);
    expect((await currentUser(b)).status).toBe(401);
  });

  it('answers 404 for an unknown provider', async () => {
    expectError(await g.app.inject({ method: 'GET', url: '/auth/oidc/missing/start' }), 404);
  });
});

describe('SAML sign-in', () => {
  const idp = samlIdentityProvider();
  let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };
  beforeAll(async () => {
    const team = await ok(g.call(owner, 'PUT', `/v1/orgs/${orgId}/teams`, { title: 'SAML people' }), 201);
    provider = await ok(
      g.call(owner, 'POST', `/v1/orgs/${orgId}/saml`, {
        label: 'Test IdP',
        entityID: idp.entityId,
        ssoURL: idp.ssoUrl,
        certificate: idp.certificate,
        defaultRole: 'review',
        defaultTeam: team.id,
      }),
      201,
    );
  });

  /** Start at the gateway; the browser arrives at the IdP with an AuthnRequest, whose ID the response answers. */
  async function startAt(b: ReturnType<typeof browser>) {
    const { stoppedAt } = await b.follow(provider.service.startURL, (next) => next.href.startsWith(idp.ssoUrl));
    return idp.requestIdOf(stoppedAt!.href);
  }
  const post = (b: ReturnType<typeof browser>, samlResponse: string) =>
    b.request(provider.service.acsURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
    });

  it('serves the SP metadata at the entity id', async () => {
    const res = await fetch(provider.service.entityID);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/samlmetadata\+xml/);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${provider.service.entityID}"`);
    expect(xml).toContain(`Location="${provider.service.acsURL}"`);
  });

  it('signs in a valid signed response: user and membership made, a session that works on GET /v1/user', async () => {
    const email = `grace@${domain}`;
    const b = browser();
    const inResponseTo = await startAt(b);
    const res = await post(b, idp.response({ email, inResponseTo, audience: provider.service.entityID, recipient: provider.service.acsURL, name: 'Grace' }));
    expect(res.status, await res.text()).toBe(303);
    expect(res.headers.get('location')).toBe(`${base}/`);
    const me = await currentUser(b);
    expect(me).toMatchObject({ status: 200, body: { email } });
    const members = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/members?search=grace`));
    expect(members.items).toMatchObject([{ role: 'review', sso: true, user: { email } }]);
  });

  it('refuses tampered, expired, replayed, wrong-audience and unsigned responses (403, no session) and logs them', async () => {
    const email = `mallory@${domain}`;
    const b = browser();
    const valid = async () => ({ email, inResponseTo: await startAt(b), audience: provider.service.entityID, recipient: provider.service.acsURL });
    const tampered = Buffer.from(
      Buffer.from(idp.response(await valid()), 'base64')
        .toString('utf8')
        .replace(email, `admin@${domain}`),
    ).toString('base64');
    const refused = [
      tampered,
      idp.response({ ...(await valid()), notBefore: new Date(Date.now() - 7_200_000), notOnOrAfter: new Date(Date.now() - 3_600_000) }),
      idp.response({ ...(await valid()), audience: 'https://other-sp.example' }),
      idp.response({ ...(await valid()), sign: false }),
    ];
    for (const r of refused) {
      const res = await post(b, r);
      expect(res.status, await res.text()).toBe(403);
    }
    const once = idp.response(await valid());
    expect((await post(b, once)).status).toBe(303);
    const replay = browser();
    const again = await post(replay, once);
    expect(again.status).toBe(403);
    expect(replay.jar.has('quire_session')).toBe(false);

    const failures = await audited('user.sign_in_failed', 5, (e) => e.details.method === 'saml');
    expect(failures.length).toBeGreaterThanOrEqual(5);
    expect(failures.map((e) => e.details.reason)).toEqual(expect.arrayContaining([expect.stringMatching(/signature/i), expect.stringMatching(/audience/i)]));
    expect(failures.every((e) => e.details.provider === provider.id)).toBe(true);
  });

  it('answers 400 for a post without a SAMLResponse and 404 for an unknown provider', async () => {
    const res = await g.app.inject({
      method: 'POST',
      url: `/auth/saml/${provider.id}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'RelayState=x',
    });
    expectError(res, 400, /SAMLResponse/);
    expectError(await g.app.inject({ method: 'GET', url: '/auth/saml/missing/start' }), 404);
  });
});

describe('GET /auth/providers and /v1/orgs/{organizationId}/sso', () => {
  it('offer the SSO providers for an address by its domain, with start URLs, and nothing for other domains', async () => {
    const { items } = await ok(g.app.inject({ method: 'GET', url: `/auth/providers?email=${encodeURIComponent(`someone@${domain}`)}` }));
    expect(items).toHaveLength(2);
    for (const p of items) {
      expect(Object.keys(p).sort()).toEqual(['id', 'label', 'startURL', 'type']);
      expect(p.startURL).toBe(`${base}/auth/${p.type}/${p.id}/start`);
    }
    expect(items.map((p: { type: string }) => p.type).sort()).toEqual(['oidc', 'saml']);
    expect(await ok(g.app.inject({ method: 'GET', url: '/auth/providers?email=someone@elsewhere.example' }))).toEqual({ items: [] });
    expectError(await g.app.inject({ method: 'GET', url: '/auth/providers?email=nope' }), 400, /email/);
    expectError(await g.app.inject({ method: 'GET', url: '/auth/providers' }), 400, /email/);

    const sso = await ok(g.app.inject({ method: 'GET', url: `/v1/orgs/${orgId}/sso`, headers: bearer(editor.token) }));
    expect(sso.items.map((p: { startURL: string }) => p.startURL).sort()).toEqual(items.map((p: { startURL: string }) => p.startURL).sort());
  });
});
