import { SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import { page } from './harness.ts';
import { test as it } from './published.ts';

// Who may read a published site: anyone (unlisted ones are not indexed), holders of a share link,
// or visitors with a token signed with the site's key. No credential is ever logged.

describe('access by visibility', () => {
  it('marks unlisted sites noindex', async ({ orgId, get, publishedSite, spaceWith }) => {
    const site = await publishedSite([await spaceWith('U', [page('Secret-ish', 'x')])], { visibility: 'unlisted' });
    const res = await get(`/${orgId}/${site.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect((await get(`/${orgId}/${site.id}/robots.txt`)).body).toContain('Disallow: /');
  });

  it('opens a share-link site with an active key, keeps it in a cookie, and refuses it once deactivated', async ({ logged, orgId, get, api, publishedSite, spaceWith }) => {
    const site = await publishedSite([await spaceWith('S', [page('Shared page', 'x')])], { visibility: 'share-link' });
    const base = `/${orgId}/${site.id}`;
    const none = await get(`${base}/`);
    expect(none.statusCode).toBe(401);
    expect(none.body).toContain('shared by link');
    expect((await get(`${base}/?shareKey=wrong`)).statusCode).toBe(403);
    const link = await api('POST', `/sites/${site.id}/share-links`, { name: 'Partners' }, 201);
    expect(link.urls.published).toMatch(new RegExp(`^http://127.0.0.1:8090/${orgId}/${site.id}\\?shareKey=`));
    const key = new URL(link.urls.published).searchParams.get('shareKey')!;
    const first = await get(`${base}/?shareKey=${key}`);
    expect(first.statusCode).toBe(200);
    expect(logged.filter((l) => l.includes(`${base}/?shareKey=`)).map((l) => JSON.parse(l).req.url)).toContain(`${base}/?shareKey=[redacted]`);
    expect(logged.join('\n')).not.toContain(key);
    const set = [first.headers['set-cookie']].flat().find((c) => c!.startsWith('quire_share='))!;
    expect(set).toMatch(new RegExp(`^quire_share=${key}; Path=${base}; HttpOnly; SameSite=Lax`));
    const withCookie = await get(`${base}/shared-page`, { cookie: `quire_share=${key}` });
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.headers['cache-control']).toBe('private, no-cache');
    await api('PATCH', `/sites/${site.id}/share-links/${link.id}`, { active: false });
    const after = await get(`${base}/shared-page`, { cookie: `quire_share=${key}` });
    expect(after.statusCode).toBe(403);
    expect(after.body).toContain('no longer works');
  });

  it('lets visitors in with a JWT signed with the site key, and its claims drive conditioned content', async ({ h, logged, owner, orgId, get, api, spaceWith }) => {
    const open = await spaceWith('Everyone', [page('Open page', 'x')]);
    const beta = await spaceWith('Beta', [page('Beta page', 'y')]);
    const site = await api('POST', '/sites', { title: 'Members', spaces: [open] }, 201);
    await api('PATCH', `/sites/${site.id}`, { visibility: 'visitor-auth' });
    const added = await api('POST', `/sites/${site.id}/site-spaces`, { spaceId: beta }, 201);
    await api('PATCH', `/sites/${site.id}/site-spaces/${added.id}`, { condition: 'visitor.claims.beta === true' });
    await api('POST', `/sites/${site.id}/publish`);
    const auth = await api('GET', `/sites/${site.id}/publishing/auth`);
    expect(auth).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const base = `/${orgId}/${site.id}`;
    const sign = (claims: Record<string, unknown>, key = auth.privateKey as string) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(key));

    expect((await get(`${base}/`)).statusCode).toBe(401);
    const plain = await get(`${base}/?jwt_token=${await sign({})}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.body).not.toContain('>Beta<');
    const withClaim = await get(`${base}/?jwt_token=${await sign({ beta: true })}`);
    expect(withClaim.body).toContain('>Beta</a>');
    expect(withClaim.headers.etag).not.toBe(plain.headers.etag);
    // A token signed with another key, or an unsigned one, is refused.
    expect((await get(`${base}/?jwt_token=${await sign({ beta: true }, 'f'.repeat(64))}`)).statusCode).toBe(403);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"beta":true}').toString('base64url')}.`;
    expect((await get(`${base}/?jwt_token=${unsigned}`)).statusCode).toBe(403);
    // The log shows the requests, never the tokens they carried.
    const requests = logged.filter((l) => l.includes(`${base}/?jwt_token=`));
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const l of requests) expect(JSON.parse(l).req.url).toBe(`${base}/?jwt_token=[redacted]`);
    expect(logged.join('\n')).not.toContain(auth.privateKey);
    expect(logged.join('\n')).not.toContain(unsigned);
    // Regenerating the key ends old tokens; a fallback URL receives visitors without one.
    const token = await sign({});
    await api('POST', `/sites/${site.id}/publishing/auth/regenerate`);
    expect((await get(`${base}/`, { cookie: `quire_visitor=${token}` })).statusCode).toBe(403);
    expect(await api('PATCH', `/sites/${site.id}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.acme.test/start' })).toMatchObject({
      fallbackURL: 'https://login.acme.test/start',
    });
    const redirect = await get(`${base}/open-page`);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe(`https://login.acme.test/start?location=${encodeURIComponent(`http://127.0.0.1:8090${base}/open-page`)}`);
    // Bad settings are refused with the field named.
    const bad = await h.g.call(owner, 'PATCH', `/v1/orgs/${orgId}/sites/${site.id}/publishing/auth`, { backend: 'custom', fallbackURL: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/fallbackURL/);
  });
});
