import { Role } from '@quire/service-kit';
import { reservedPort } from '@quire/service-kit/testing';
import type { TestUser } from '@quire/orgs/testing';
import { ok } from '@quire/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, spaceWith, startReader } from './harness.ts';

// Members of an organization read its private sites with their sign-in session: here the stack
// runs as `pnpm dev` does, the reader answering on the gateway's origin below `/read` (the
// gateway passes those requests on), so the session cookie reaches it; on a custom hostname a
// member goes through the gateway's /auth/site-access and comes back with a short-lived grant.

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
  h.g.app.inject({ method: 'GET', url, headers: { host, cookie: Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join('; ') } });
const direct = (url: string, headers: Record<string, string>) => h.reader.app.inject({ method: 'GET', url, headers });

async function sessionOf(user: TestUser): Promise<string> {
  const res = await h.g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: user.email, password: user.password } });
  expect(res.statusCode, res.body).toBe(204);
  return res.cookies.find((c) => c.name === 'quire_session')!.value;
}

beforeAll(async () => {
  const port = await reservedPort();
  h = await startReader({ QUIRE_READER_URL: `${PUBLIC}/read`, QUIRE_PUBLIC_URL: PUBLIC }, { gatewayEnv: { QUIRE_PUBLIC_URL: PUBLIC, QUIRE_READER_URL: `${PUBLIC}/read`, READER_UPSTREAM_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_ADDRESS_PER_MINUTE: '100000' } });
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

describe('members on the gateway\'s origin (pnpm dev)', () => {
  it('serves the site and the reader\'s assets on the gateway\'s origin', async () => {
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
    const out = await h.g.app.inject({ method: 'POST', url: '/auth/sign-out', headers: { cookie: `quire_session=${session}`, origin: PUBLIC, 'x-csrf-token': (await h.g.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: `quire_session=${session}` } })).json().csrfToken } });
    expect(out.statusCode).toBe(204);
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
    for (const elsewhere of ['https://evil.test/steal', `https://${host}.evil.test/`, `https://user:pw@evil.test/`, 'javascript:alert(1)', `${PUBLIC}/v1/user`, `${PUBLIC}/read/${orgId}/other-site/`]) {
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
