import { Role } from '@quire/proto/common';
import { reservedPort } from '@quire/service-kit/testing';
import type { TestUser } from '@quire/orgs/testing';
import { ok } from '@quire/gateway/testing';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, spaceWith, startReader } from './harness.ts';

// Members of an organization read its private sites with their sign-in session: here the stack
// runs as `pnpm dev` does, the reader answering on the gateway's origin below `/read` (the
// gateway passes those requests on), so the session cookie reaches it; on a custom hostname a
// member goes through the gateway's /auth/site-access and comes back with a short-lived grant.
// On a visitor-auth site the visitor token goes first (its claims decide what shows); without a
// valid one, the member's session or grant lets the member read everything; anyone else is sent
// to the site's visitor authentication backend (its fallbackURL).

const PUBLIC = 'http://127.0.0.1:8080';

let h: Awaited<ReturnType<typeof startReader>>;
let owner: TestUser;
let reader: TestUser;
let outsider: TestUser;
let orgId: string;
let siteId: string;

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, status = 200) => ok(h.g.call(owner, method, `/v1/orgs/${orgId}${url}`, body), status);
/** A request to the gateway's origin, as a browser with these cookies sends it. */
const viaGateway = (url: string, cookies: Record<string, string> = {}, host = '127.0.0.1:8080') =>
  h.g.app.inject({
    method: 'GET',
    url,
    headers: {
      host,
      cookie: Object.entries(cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    },
  });
const direct = (url: string, headers: Record<string, string>) => h.reader.app.inject({ method: 'GET', url, headers });

async function sessionOf(user: TestUser): Promise<string> {
  const res = await h.g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: user.email, password: user.password } });
  expect(res.statusCode, res.body).toBe(204);
  return res.cookies.find((c) => c.name === 'quire_session')!.value;
}

/** Ends the session as the web app does (with its CSRF token). */
async function signOut(session: string) {
  const csrfToken = (await h.g.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: `quire_session=${session}` } })).json().csrfToken;
  const out = await h.g.app.inject({ method: 'POST', url: '/auth/sign-out', headers: { cookie: `quire_session=${session}`, origin: PUBLIC, 'x-csrf-token': csrfToken } });
  expect(out.statusCode).toBe(204);
}

beforeAll(async () => {
  const port = await reservedPort();
  h = await startReader(
    { QUIRE_READER_URL: `${PUBLIC}/read`, QUIRE_PUBLIC_URL: PUBLIC },
    { gatewayEnv: { QUIRE_PUBLIC_URL: PUBLIC, QUIRE_READER_URL: `${PUBLIC}/read`, READER_UPSTREAM_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_ADDRESS_PER_MINUTE: '100000' } },
  );
  await h.reader.app.listen({ host: '127.0.0.1', port });
  owner = await h.g.orgs.user('owner');
  reader = await h.g.orgs.user('reader');
  outsider = await h.g.orgs.user('outsider');
  orgId = (await h.g.orgs.organization(owner, [[reader, Role.ROLE_READ]])).id;
  await h.g.orgs.organization(outsider, [], 'Elsewhere');
  const space = await spaceWith(h.g, owner, orgId, 'Internal', [page('Runbook', 'Restart the flux capacitor.')]);
  const site = await api('POST', '/sites', { title: 'Internal docs', spaces: [space] }, 201);
  await api('PATCH', `/sites/${site.id}`, { visibility: 'share-link', hostname: 'internal.acme.test' });
  await api('POST', `/sites/${site.id}/publish`);
  siteId = site.id;
}, 180_000);
afterAll(() => h?.stop());

describe("members on the gateway's origin (pnpm dev)", () => {
  it("serves the site and the reader's assets on the gateway's origin", async () => {
    const shown = await ok(h.g.call(owner, 'GET', `/v1/orgs/${orgId}/sites/${siteId}`), 200);
    // The custom hostname wins for urls.published; the path form stays on the gateway's origin.
    expect(shown.urls.published).toBe('https://internal.acme.test');
    const refused = await viaGateway(`/read/${orgId}/${siteId}/`);
    expect(refused.statusCode).toBe(401);
    const css = refused.body.match(/href="(\/_reader\/[^"]+\.css)"/)![1]!;
    const asset = await viaGateway(css);
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/text\/css/);
  });

  it('lets members of the organization read a private site with their session, and nobody else', async () => {
    const url = `/read/${orgId}/${siteId}/runbook`;
    for (const user of [owner, reader]) {
      const res = await viaGateway(url, { quire_session: await sessionOf(user) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain('Restart the flux capacitor.');
      expect(res.body).toContain(`<link rel="canonical" href="${PUBLIC}/read/${orgId}/${siteId}/runbook">`);
      // What a member reads is never kept by a shared cache.
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }
    expect((await viaGateway(url, { quire_session: await sessionOf(outsider) })).statusCode).toBe(401);
    expect((await viaGateway(url, { quire_session: 'forged-session-value' })).statusCode).toBe(401);
    expect((await viaGateway(url)).statusCode).toBe(401);
  });

  it('refuses a session at once when it ends (sign-out)', async () => {
    const session = await sessionOf(reader);
    const url = `/read/${orgId}/${siteId}/runbook`;
    expect((await viaGateway(url, { quire_session: session })).statusCode).toBe(200);
    await signOut(session);
    expect((await viaGateway(url, { quire_session: session })).statusCode).toBe(401);
  });
});

describe('members on a custom hostname', () => {
  const host = 'internal.acme.test';

  it('sends a member through the gateway and back with a short-lived grant the reader keeps', async () => {
    const refused = await direct('/runbook', { host });
    expect(refused.statusCode).toBe(401);
    const link = refused.body.match(/<a href="([^"]+)">Continue with your Quire account<\/a>/)![1]!.replaceAll('&amp;', '&');
    const access = new URL(link);
    expect(access.origin + access.pathname).toBe(`${PUBLIC}/auth/site-access`);
    expect(Object.fromEntries(access.searchParams)).toEqual({ organization: orgId, site: siteId, location: `http://${host}/runbook` });

    const session = await sessionOf(reader);
    const back = await viaGateway(access.pathname + access.search, { quire_session: session });
    expect(back.statusCode, back.body).toBe(302);
    const location = new URL(back.headers.location as string);
    expect(location.origin + location.pathname).toBe(`http://${host}/runbook`);
    const grant = location.searchParams.get('quire_member')!;

    const first = await direct(`/runbook?quire_member=${grant}`, { host });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Restart the flux capacitor.');
    const cookie = first.cookies.find((c) => c.name === 'quire_member')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', maxAge: 600 });
    expect((await direct('/', { host, cookie: `quire_member=${cookie.value}` })).statusCode).toBe(200);
  });

  it('refuses what an attacker tries: no session, not a member, another address, a grant for another site, a forged grant', async () => {
    const query = (location: string) => `/auth/site-access?${new URLSearchParams({ organization: orgId, site: siteId, location })}`;
    expect((await viaGateway(query(`http://${host}/`))).statusCode).toBe(401);
    expect((await viaGateway(query(`http://${host}/`), { quire_session: await sessionOf(outsider) })).statusCode).toBe(404);
    const session = await sessionOf(reader);
    for (const elsewhere of [
      'https://evil.test/steal',
      `https://${host}.evil.test/`,
      `https://user:pw@evil.test/`,
      'javascript:alert(1)',
      `${PUBLIC}/v1/user`,
      `${PUBLIC}/read/${orgId}/other-site/`,
    ]) {
      const res = await viaGateway(query(elsewhere), { quire_session: session });
      expect(res.statusCode, elsewhere).toBe(400);
      expect(res.json().error.message).toMatch(/location: must be a page of the site/);
    }
    // A grant is for one site: another site of the same organization does not take it.
    const other = await api('POST', '/sites', { title: 'Other', spaces: [await spaceWith(h.g, owner, orgId, 'Other', [page('Other page', 'x')])] }, 201);
    await api('PATCH', `/sites/${other.id}`, { visibility: 'share-link', hostname: 'other.acme.test' });
    await api('POST', `/sites/${other.id}/publish`);
    const back = await viaGateway(query(`http://${host}/`), { quire_session: session });
    const grant = new URL(back.headers.location as string).searchParams.get('quire_member')!;
    expect((await direct(`/?quire_member=${grant}`, { host: 'other.acme.test' })).statusCode).toBe(401);
    const [header, payload] = grant.split('.');
    expect((await direct(`/?quire_member=${header}.${payload}.AAAA`, { host })).statusCode).toBe(401);
    // Nor is a grant a service assertion, nor the other way round (service-kit's tests): the reader only passes it on.
  });
});

describe('members on a visitor-auth site', () => {
  const host = 'members.acme.test';
  const backend = 'https://login.acme.test/start';
  let base: string;
  let key: string;
  const sign = (claims: Record<string, unknown>, secret = key) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(secret));
  /** The variant switcher links the conditioned site-space only when it shows. */
  const showsBeta = (body: string) => body.includes('>Beta</a>');

  beforeAll(async () => {
    const open = await spaceWith(h.g, owner, orgId, 'Everyone', [page('Welcome', 'For every reader.')]);
    const beta = await spaceWith(h.g, owner, orgId, 'Beta', [page('Beta notes', 'Only with the beta claim.')]);
    const site = await api('POST', '/sites', { title: 'Customer docs', spaces: [open] }, 201);
    await api('PATCH', `/sites/${site.id}`, { visibility: 'visitor-auth', hostname: host });
    const added = await api('POST', `/sites/${site.id}/site-spaces`, { spaceId: beta }, 201);
    await api('PATCH', `/sites/${site.id}/site-spaces/${added.id}`, { condition: 'visitor.claims.beta === true' });
    key = (await api('PATCH', `/sites/${site.id}/publishing/auth`, { backend: 'custom', fallbackURL: backend })).privateKey as string;
    await api('POST', `/sites/${site.id}/publish`);
    base = `/read/${orgId}/${site.id}`;
  });

  it('lets a signed-in member read all of it without a visitor token; a valid token goes first', async () => {
    for (const user of [owner, reader]) {
      const session = await sessionOf(user);
      const res = await viaGateway(`${base}/`, { quire_session: session });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain('For every reader.');
      expect(showsBeta(res.body)).toBe(true);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      // The conditioned site-space's pages open too.
      const beta = await viaGateway(`${base}/beta/beta-notes`, { quire_session: session });
      expect(beta.statusCode, beta.body).toBe(200);
      expect(beta.body).toContain('Only with the beta claim.');
    }
    const session = await sessionOf(reader);
    // A valid visitor token: the member reads as that visitor, the claims deciding.
    const asVisitor = await viaGateway(`${base}/?jwt_token=${await sign({})}`, { quire_session: session });
    expect(asVisitor.statusCode).toBe(200);
    expect(showsBeta(asVisitor.body)).toBe(false);
    expect(showsBeta((await viaGateway(`${base}/?jwt_token=${await sign({ beta: true })}`, { quire_session: session })).body)).toBe(true);
    // A token that is not valid (another key) falls back to the session.
    const stale = await viaGateway(`${base}/?jwt_token=${await sign({}, 'f'.repeat(64))}`, { quire_session: session });
    expect(stale.statusCode).toBe(200);
    expect(showsBeta(stale.body)).toBe(true);
    // ...and the bad token is not kept: its cookie's last word clears it.
    expect(stale.cookies.filter((c) => c.name === 'quire_visitor').at(-1)).toMatchObject({ value: '', expires: new Date(0) });
  });

  it('sends everyone else to the visitor authentication backend: no session, an outsider, a forged or ended session, a bad token', async () => {
    const expected = `${backend}?location=${encodeURIComponent(`${PUBLIC}${base}/beta/beta-notes`)}`;
    const session = await sessionOf(reader);
    await signOut(session);
    const tries: Record<string, string>[] = [
      {},
      { quire_session: await sessionOf(outsider) },
      { quire_session: 'forged-session-value' },
      { quire_session: session },
      { quire_visitor: await sign({ beta: true }, 'f'.repeat(64)) },
    ];
    for (const cookies of tries) {
      const res = await viaGateway(`${base}/beta/beta-notes`, cookies);
      expect(res.statusCode, JSON.stringify(cookies)).toBe(302);
      expect(res.headers.location).toBe(expected);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).not.toContain('Only with the beta claim.');
    }
    // A visitor token alone is the visitor's way in, with only what its claims allow.
    const visitor = await viaGateway(`${base}/?jwt_token=${await sign({})}`);
    expect(visitor.statusCode).toBe(200);
    expect(showsBeta(visitor.body)).toBe(false);
  });

  it('on its custom hostname: a member back from site-access reads all of it, without a grant anyone is sent to the backend', async () => {
    const refused = await direct('/', { host });
    expect(refused.statusCode).toBe(302);
    expect(refused.headers.location).toBe(`${backend}?location=${encodeURIComponent(`http://${host}/`)}`);
    const access = `/auth/site-access?${new URLSearchParams({ organization: orgId, site: base.split('/').pop()!, location: `http://${host}/` })}`;
    const back = await viaGateway(access, { quire_session: await sessionOf(reader) });
    expect(back.statusCode, back.body).toBe(302);
    const grant = new URL(back.headers.location as string).searchParams.get('quire_member')!;
    const res = await direct(`/?quire_member=${grant}`, { host });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('For every reader.');
    expect(showsBeta(res.body)).toBe(true);
    // An outsider gets no grant; a forged one is no way in.
    expect((await viaGateway(access, { quire_session: await sessionOf(outsider) })).statusCode).toBe(404);
    const [header, payload] = grant.split('.');
    expect((await direct(`/?quire_member=${header}.${payload}.AAAA`, { host })).statusCode).toBe(302);
  });
});
