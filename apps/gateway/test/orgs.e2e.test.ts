import { describe, expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { Role } from '@quire/policy';
import { bearer, expectError, ok, type Method } from './harness.ts';
import { test as base, tenant, type Tenant } from './fixtures.ts';

// The member lists below name everyone in the organization: an editor and a reader beside the owner.
const test = base.extend<{ org: Tenant<'editor' | 'reader'> }>({
  org: async ({ g }, use) => use(await tenant(g, { editor: Role.ROLE_EDIT, reader: Role.ROLE_READ })),
});

/** A hostname of the test's own organization: hostnames are unique across all of them. */
const hostnameOf = (name: string, orgId: string) => `${name}-${orgId.toLowerCase()}`;

describe('organizations', () => {
  test("lists the caller's organizations in the list envelope, paging with next", async ({ g, org: { owner, orgId } }) => {
    const res = await g.call(owner, 'GET', '/v1/orgs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
    const body = res.json();
    expect(body).toMatchObject({
      count: 1,
      items: [{ object: 'organization', id: orgId, title: 'Acme Docs', defaultRole: 'read', inviteLinks: true, permissions: { admin: true } }],
    });
    expect(body.next).toBeUndefined();
    expect(body.items[0].urls.location).toBe(`http://127.0.0.1:8080/v1/orgs/${orgId}`);

    await g.call(owner, 'POST', '/v1/orgs', { title: 'Second Org' });
    const page1 = (await g.call(owner, 'GET', '/v1/orgs?limit=1')).json();
    expect(page1.count).toBe(1);
    expect(page1.next.page).toEqual(expect.any(String));
    const page2 = (await g.call(owner, 'GET', `/v1/orgs?limit=1&page=${page1.next.page}`)).json();
    expect(page2.items[0].id).not.toBe(page1.items[0].id);
    expect(page2.next).toBeUndefined();
  });

  test('creates an organization with 201 and a Location header', async ({ g, org: { reader } }) => {
    const res = await g.call(reader, 'POST', '/v1/orgs', { title: 'Reader Co', emailDomains: ['reader.example'] });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(res.headers.location).toBe(body.urls.location);
    expect(body).toMatchObject({ object: 'organization', title: 'Reader Co', emailDomains: ['reader.example'], permissions: { admin: true } });
  });

  test('gets and patches an organization as the reference says', async ({ g, org: { owner, reader, orgId } }) => {
    const got = await g.call(reader, 'GET', `/v1/orgs/${orgId}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().permissions).toMatchObject({ view: true, admin: false, listMembers: true });

    const hostname = hostnameOf('acme', orgId);
    const patched = await g.call(owner, 'PATCH', `/v1/orgs/${orgId}`, {
      title: 'Acme Documentation',
      hostname,
      emailDomains: ['acme.example'],
      defaultRole: null,
      defaultContent: { type: 'site', site: 'site123' },
      logo: 'https://cdn.example/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      title: 'Acme Documentation',
      hostname,
      emailDomains: ['acme.example'],
      defaultRole: null,
      defaultContent: { type: 'site', site: 'site123' },
      urls: { logo: 'https://cdn.example/logo.png' },
      sso: true,
      ai: true,
      inviteLinks: false,
    });
    const cleared = (await g.call(owner, 'PATCH', `/v1/orgs/${orgId}`, { logo: null, defaultContent: null, defaultRole: 'read', inviteLinks: true })).json();
    expect(cleared.urls.logo).toBeUndefined();
    expect(cleared.defaultContent).toBeUndefined();
    expect(cleared).toMatchObject({ defaultRole: 'read', title: 'Acme Documentation', hostname });
  });

  test('looks organizations up by email domain', async ({ g, org: { owner, outsider, orgId } }) => {
    // A domain of this test's own.
    const domain = `acme-${orgId.toLowerCase()}.example`;
    await ok(g.call(owner, 'PATCH', `/v1/orgs/${orgId}`, { emailDomains: ['acme.example', domain] }));
    const res = await g.call(owner, 'GET', `/v1/email-domains/${domain}/orgs`);
    expect(res.statusCode).toBe(200);
    expect(res.json().organizations.map((o: { id: string }) => o.id)).toEqual([orgId]);
    expect((await g.call(outsider, 'GET', `/v1/email-domains/${domain}/orgs`)).json()).toEqual({ organizations: [] });
  });
});

describe('members', () => {
  test('lists with order, role, search and sort', async ({ g, org: { owner, editor, reader, orgId } }) => {
    const ids = (res: LightMyRequestResponse) => res.json().items.map((m: { id: string }) => m.id);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/members`))).toEqual([reader.id, editor.id, owner.id]);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/members?order=asc`))).toEqual([owner.id, editor.id, reader.id]);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/members?role=edit`))).toEqual([editor.id]);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/members?role=guest`))).toEqual([]);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/members?search=${encodeURIComponent(editor.email.toUpperCase())}`))).toEqual([editor.id]);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/members?search=editor`))).toEqual([editor.id]);
    expect((await g.call(reader, 'POST', `/v1/orgs/${orgId}/ping`)).statusCode).toBe(200);
    const seen = await g.call(owner, 'GET', `/v1/orgs/${orgId}/members?sort=lastSeenAt`);
    expect(ids(seen)).toEqual([reader.id]);
    expect(seen.json().items[0]).toMatchObject({
      object: 'member',
      role: 'read',
      user: { object: 'user', id: reader.id, email: reader.email },
      disabled: false,
      sso: false,
      spaces: 0,
      teams: 0,
      lastSeenAt: expect.any(String),
    });
    const page = (await g.call(reader, 'GET', `/v1/orgs/${orgId}/members?limit=2&order=asc`)).json();
    expect(page.count).toBe(2);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/members?limit=2&order=asc&page=${page.next.page}`))).toEqual([reader.id]);
  });

  test('gets, patches, makes SSO and removes members', async ({ g, org: { owner, editor, reader, orgId } }) => {
    const got = await g.call(reader, 'GET', `/v1/orgs/${orgId}/members/${editor.id}`);
    expect(got.json()).toMatchObject({ id: editor.id, role: 'edit' });
    const patched = await g.call(owner, 'PATCH', `/v1/orgs/${orgId}/members/${editor.id}`, { role: 'review' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().role).toBe('review');
    const guest = await g.call(owner, 'PATCH', `/v1/orgs/${orgId}/members/${editor.id}`, { role: null });
    expect(guest.json().role).toBeNull();
    await g.call(owner, 'PATCH', `/v1/orgs/${orgId}/members/${editor.id}`, { role: 'edit' });
    const sso = await g.call(owner, 'POST', `/v1/orgs/${orgId}/members/${editor.id}/sso`);
    expect(sso.statusCode).toBe(200);
    expect(sso.json().sso).toBe(true);

    const leaver = await g.orgs.user('leaver');
    await g.orgs.member(orgId, leaver, Role.ROLE_READ);
    const removed = await g.call(owner, 'DELETE', `/v1/orgs/${orgId}/members/${leaver.id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${leaver.id}`), 404);
  });

  test('pings with signed visitor claims', async ({ g, org: { editor, orgId } }) => {
    const res = await g.call(editor, 'POST', `/v1/orgs/${orgId}/ping`);
    expect(res.statusCode).toBe(200);
    expect(res.json().serviceVisitorClaims.split('.')).toHaveLength(3);
  });
});

describe('teams and link invites', () => {
  test('creates with PUT (201), lists with owner and title, gets, patches and deletes', async ({ g, org: { owner, editor, reader, orgId } }) => {
    const created = await g.call(owner, 'PUT', `/v1/orgs/${orgId}/teams`, { title: 'Writers', members: [editor.id, reader.id] });
    expect(created.statusCode).toBe(201);
    const team = created.json();
    expect(team).toMatchObject({ object: 'team', title: 'Writers', members: 2, spaces: 0, permissions: { admin: true, view: true } });

    const changed = await g.call(owner, 'PUT', `/v1/orgs/${orgId}/teams/${team.id}/members`, { memberships: { [editor.id]: { role: 'owner' } } });
    expect(changed.statusCode).toBe(204);
    const ids = (res: LightMyRequestResponse) => res.json().items.map((t: { id: string }) => t.id);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/teams?title=writ`))).toEqual([team.id]);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/teams?title=nothing`))).toEqual([]);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/teams?owner=${editor.id}`))).toEqual([team.id]);
    expect(ids(await g.call(reader, 'GET', `/v1/orgs/${orgId}/teams?owner=${reader.id}`))).toEqual([]);
    const memberTeams = (await g.call(editor, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/teams`)).json();
    expect(memberTeams).toMatchObject({ count: 1, items: [{ team: { id: team.id }, member: { role: 'owner' } }] });
    expect((await g.call(editor, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/teams?title=zzz`)).json().count).toBe(0);

    expect((await g.call(reader, 'GET', `/v1/orgs/${orgId}/teams/${team.id}`)).json()).toMatchObject({ id: team.id, permissions: { admin: false } });
    const renamed = await g.call(editor, 'PATCH', `/v1/orgs/${orgId}/teams/${team.id}`, { title: 'Authors' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().title).toBe('Authors');
    const deleted = await g.call(owner, 'DELETE', `/v1/orgs/${orgId}/teams/${team.id}`);
    expect(deleted.statusCode).toBe(204);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/teams/${team.id}`), 404);
  });

  test('creates, lists and deletes link invites (205)', async ({ g, org: { owner, orgId } }) => {
    const created = await g.call(owner, 'POST', `/v1/orgs/${orgId}/link-invites`, { role: 'edit' });
    expect(created.statusCode).toBe(201);
    const invite = created.json();
    expect(invite).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: false });
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/link-invites`)).json()).toMatchObject({ count: 1, items: [{ id: invite.id }] });
    const deleted = await g.call(owner, 'DELETE', `/v1/orgs/${orgId}/link-invites/${invite.id}`);
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/link-invites`)).json()).toEqual({ count: 0, items: [] });
    expectError(await g.call(owner, 'DELETE', `/v1/orgs/${orgId}/link-invites/${invite.id}`), 404);
  });
});

describe('users', () => {
  test('answers the current user and users sharing an organization', async ({ g, org: { owner, reader, outsider } }) => {
    expect((await g.call(reader, 'GET', '/v1/user')).json()).toMatchObject({
      object: 'user',
      id: reader.id,
      email: reader.email,
      urls: { location: expect.stringContaining(reader.id) },
    });
    expect((await g.call(reader, 'GET', `/v1/users/${owner.id}`)).statusCode).toBe(200);
    expectError(await g.call(reader, 'GET', `/v1/users/${outsider.id}`), 404);
  });
});

describe('bad input and access', () => {
  test('answers 401 without a token or with a bad one', async ({ g }) => {
    expectError(await g.call(null, 'GET', '/v1/orgs'), 401, /Bearer/);
    expectError(await g.app.inject({ method: 'GET', url: '/v1/orgs', headers: { authorization: 'Bearer qt_wrong' } }), 401, /not valid/);
    expectError(await g.app.inject({ method: 'GET', url: '/v1/orgs', headers: { authorization: 'Basic abc' } }), 401);
  });

  test('hides another organization (404), and refuses non-admins (403), changing nothing', async ({ g, org: { owner, editor, reader, outsider, orgId, otherOrgId } }) => {
    const before = (await g.call(owner, 'GET', `/v1/orgs/${orgId}`)).json();
    const teamsBefore = (await g.call(owner, 'GET', `/v1/orgs/${orgId}/teams`)).json();
    const membersBefore = (await g.call(owner, 'GET', `/v1/orgs/${orgId}/members`)).json();
    const outside: [Method, string, unknown?][] = [
      ['GET', `/v1/orgs/${orgId}`],
      ['PATCH', `/v1/orgs/${orgId}`, { title: 'Hijacked' }],
      ['GET', `/v1/orgs/${orgId}/members`],
      ['GET', `/v1/orgs/${orgId}/members/${owner.id}`],
      ['PATCH', `/v1/orgs/${orgId}/members/${owner.id}`, { role: 'read' }],
      ['DELETE', `/v1/orgs/${orgId}/members/${owner.id}`],
      ['POST', `/v1/orgs/${orgId}/ping`],
      ['POST', `/v1/orgs/${orgId}/members/${owner.id}/sso`],
      ['GET', `/v1/orgs/${orgId}/members/${owner.id}/teams`],
      ['GET', `/v1/orgs/${orgId}/teams`],
      ['PUT', `/v1/orgs/${orgId}/teams`, { title: 'Intruders' }],
      ['GET', `/v1/orgs/${orgId}/link-invites`],
      ['POST', `/v1/orgs/${orgId}/link-invites`, { role: 'admin' }],
      ['DELETE', `/v1/orgs/${orgId}/link-invites/abc`],
    ];
    for (const [method, url, body] of outside) expectError(await g.call(outsider, method, url, body), 404);
    // The owner's own ids used against the outsider's organization are just as hidden.
    expectError(await g.call(owner, 'GET', `/v1/orgs/${otherOrgId}`), 404);

    const notAdmin: [Method, string, unknown?][] = [
      ['PATCH', `/v1/orgs/${orgId}`, { title: 'Hijacked' }],
      ['PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, { role: 'admin' }],
      ['DELETE', `/v1/orgs/${orgId}/members/${owner.id}`],
      ['POST', `/v1/orgs/${orgId}/members/${reader.id}/sso`],
      ['PUT', `/v1/orgs/${orgId}/teams`, { title: 'Mine' }],
      ['GET', `/v1/orgs/${orgId}/link-invites`],
      ['POST', `/v1/orgs/${orgId}/link-invites`, { role: 'admin' }],
    ];
    for (const [method, url, body] of notAdmin) expectError(await g.call(editor, method, url, body), 403);

    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}`)).json()).toEqual(before);
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/teams`)).json()).toEqual(teamsBefore);
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/members`)).json()).toEqual(membersBefore);
  });

  test('answers 400 naming the field for every bound, enum and type, changing nothing', async ({ g, org: { owner, reader, outsider, orgId } }) => {
    const before = (await g.call(owner, 'GET', `/v1/orgs/${orgId}`)).json();
    const cases: [Method, string, unknown, RegExp][] = [
      ['GET', '/v1/orgs?limit=1001', undefined, /limit/],
      ['GET', '/v1/orgs?limit=-1', undefined, /limit/],
      ['GET', '/v1/orgs?limit=ten', undefined, /limit/],
      ['GET', '/v1/orgs?page=not-a-cursor', undefined, /page/],
      ['GET', `/v1/orgs/${orgId}/members?limit=1001`, undefined, /limit/],
      ['GET', `/v1/orgs/${orgId}/members?order=up`, undefined, /order/],
      ['GET', `/v1/orgs/${orgId}/members?role=owner`, undefined, /role/],
      ['GET', `/v1/orgs/${orgId}/members?sort=name`, undefined, /sort/],
      ['GET', `/v1/orgs/${orgId}/teams?limit=1001`, undefined, /limit/],
      ['GET', `/v1/orgs/${orgId}/members/${owner.id}/teams?limit=5000`, undefined, /limit/],
      ['GET', `/v1/orgs/${orgId}/link-invites?limit=1001`, undefined, /limit/],
      ['POST', '/v1/orgs', {}, /title/],
      ['POST', '/v1/orgs', { title: 'x' }, /title/],
      ['POST', '/v1/orgs', { title: 'Ok title', emailDomains: ['not a domain'] }, /emailDomains/],
      ['PATCH', `/v1/orgs/${orgId}`, { title: 'x' }, /title/],
      ['PATCH', `/v1/orgs/${orgId}`, { title: 'x'.repeat(256) }, /title/],
      ['PATCH', `/v1/orgs/${orgId}`, { title: 42 }, /title/],
      ['PATCH', `/v1/orgs/${orgId}`, { hostname: 'ab' }, /hostname/],
      ['PATCH', `/v1/orgs/${orgId}`, { hostname: 'a'.repeat(33) }, /hostname/],
      ['PATCH', `/v1/orgs/${orgId}`, { hostname: 'Not_Valid' }, /hostname/],
      ['PATCH', `/v1/orgs/${orgId}`, { logo: 'not a uri' }, /logo/],
      ['PATCH', `/v1/orgs/${orgId}`, { logo: `https://x.example/${'a'.repeat(2048)}` }, /logo/],
      ['PATCH', `/v1/orgs/${orgId}`, { defaultRole: 'owner' }, /defaultRole/],
      ['PATCH', `/v1/orgs/${orgId}`, { defaultContent: { type: 'space', site: 'x' } }, /defaultContent/],
      ['PATCH', `/v1/orgs/${orgId}`, { sso: 'yes' }, /sso/],
      ['PATCH', `/v1/orgs/${orgId}`, { emailDomains: 'acme.example' }, /emailDomains/],
      ['PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, { role: 'superuser' }, /role/],
      ['PUT', `/v1/orgs/${orgId}/teams`, {}, /title/],
      ['PUT', `/v1/orgs/${orgId}/teams`, { title: '' }, /title/],
      ['PUT', `/v1/orgs/${orgId}/teams`, { title: 'x'.repeat(65) }, /title/],
      ['PUT', `/v1/orgs/${orgId}/teams`, { title: 'Team', members: 'abc' }, /members/],
      ['PUT', `/v1/orgs/${orgId}/teams`, { title: 'Team', members: [outsider.id] }, /members\[0\]/],
      ['POST', `/v1/orgs/${orgId}/link-invites`, {}, /role/],
      ['POST', `/v1/orgs/${orgId}/link-invites`, { role: 'boss' }, /role/],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await g.call(owner, method, url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expectError(res, 400, message);
    }
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}`)).json()).toEqual(before);
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/teams?title=Team`)).json().count).toBe(0);
  });

  test('answers 404 for unknown ids and routes, 409 for a taken hostname or the last admin', async ({ g, org: { owner, orgId } }) => {
    expectError(await g.call(owner, 'GET', '/v1/orgs/nope'), 404, /Organization/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/nobody`), 404, /Member/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/teams/none`), 404, /Team/);
    expectError(await g.call(owner, 'GET', '/v1/nothing-here'), 404);
    const second = (await g.call(owner, 'POST', '/v1/orgs', { title: 'Hostname Co' })).json();
    const taken = hostnameOf('taken', orgId);
    await g.call(owner, 'PATCH', `/v1/orgs/${second.id}`, { hostname: taken });
    expectError(await g.call(owner, 'PATCH', `/v1/orgs/${orgId}`, { hostname: taken }), 409, /hostname/);
    expectError(await g.call(owner, 'PATCH', `/v1/orgs/${orgId}/members/${owner.id}`, { role: 'read' }), 409, /admin/);
    expectError(await g.call(owner, 'DELETE', `/v1/orgs/${orgId}/members/${owner.id}`), 409, /admin/);
  });

  test('refuses malformed JSON and oversized bodies with the error body', async ({ g, org: { owner, orgId } }) => {
    const bad = await g.app.inject({ method: 'PATCH', url: `/v1/orgs/${orgId}`, headers: { ...bearer(owner.token), 'content-type': 'application/json' }, payload: '{"title":' });
    expectError(bad, 400);
    const big = await g.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${orgId}`,
      headers: { ...bearer(owner.token), 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expectError(big, 413);
  });
});
