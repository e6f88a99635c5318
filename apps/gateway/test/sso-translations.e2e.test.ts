import { describe, expect } from 'vitest';
import { TEST_CERTIFICATE, type TestUser } from '@quire/orgs/testing';
import { expectError, type Method } from './harness.ts';
import { test as it } from './fixtures.ts';

// Each test in an organization of its own (fixtures.ts).

describe('SAML providers', () => {
  it('creates (201), completes, lists, gets, patches and deletes (204); /sso lists active ones', async ({ g, team: { owner, outsider, orgId } }) => {
    const created = await g.call(owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Okta', defaultRole: null });
    expect(created.statusCode).toBe(201);
    const provider = created.json();
    expect(created.headers.location).toBe(provider.urls.location);
    expect(provider).toMatchObject({ object: 'saml-provider', label: 'Okta', status: 'pending', defaultRole: null, ssoURL: '', entityID: '', certificate: '' });
    expect(provider.service).toEqual({
      acsURL: `http://127.0.0.1:8080/auth/saml/${provider.id}/acs`,
      startURL: `http://127.0.0.1:8080/auth/saml/${provider.id}/start`,
      entityID: `http://127.0.0.1:8080/auth/saml/${provider.id}/metadata`,
    });
    expect((await g.call(outsider, 'GET', `/v1/orgs/${orgId}/sso`)).json()).toEqual({ items: [] });

    const team = (await g.call(owner, 'PUT', `/v1/orgs/${orgId}/teams`, { title: 'From SSO' })).json();
    const patched = await g.call(owner, 'PATCH', `/v1/orgs/${orgId}/saml/${provider.id}`, {
      ssoURL: 'https://idp.example/sso',
      entityID: 'https://idp.example',
      certificate: TEST_CERTIFICATE,
      defaultTeam: team.id,
      defaultRole: 'edit',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ status: 'active', defaultRole: 'edit', defaultTeam: { object: 'team', id: team.id }, ssoURL: 'https://idp.example/sso' });
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/saml`)).json()).toMatchObject({ count: 1, items: [{ id: provider.id }] });
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/saml/${provider.id}`)).json().label).toBe('Okta');
    expect((await g.call(outsider, 'GET', `/v1/orgs/${orgId}/sso`)).json()).toEqual({ items: [{ id: provider.id, label: 'Okta', startURL: provider.service.startURL }] });

    const deleted = await g.call(owner, 'DELETE', `/v1/orgs/${orgId}/saml/${provider.id}`);
    expect(deleted.statusCode).toBe(204);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/saml/${provider.id}`), 404);
  });

  it('answers bad input and other callers with the error body, writing nothing', async ({ g, team: { owner, editor, outsider, orgId } }) => {
    const cases: [TestUser, Method, string, unknown, number, RegExp?][] = [
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, {}, 400, /label/],
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: '' }, 400, /label/],
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'x'.repeat(31) }, 400, /label/],
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Bad', certificate: 'MIIBogus==' }, 400, /certificate: not an X\.509 certificate/],
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Bad', certificate: 'c'.repeat(10_001) }, 400, /certificate/],
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Bad', entityID: 'e'.repeat(1025) }, 400, /entityID/],
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Bad', ssoURL: 'not a url' }, 400, /ssoURL/],
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Bad', defaultRole: 'owner' }, 400, /defaultRole/],
      [owner, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Bad', defaultTeam: 'missing' }, 400, /defaultTeam/],
      [owner, 'GET', `/v1/orgs/${orgId}/saml?limit=1001`, undefined, 400, /limit/],
      [owner, 'PATCH', `/v1/orgs/${orgId}/saml/missing`, { label: 'X' }, 404],
      [editor, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Mine' }, 403],
      [editor, 'GET', `/v1/orgs/${orgId}/saml`, undefined, 403],
      [outsider, 'POST', `/v1/orgs/${orgId}/saml`, { label: 'Mine' }, 404],
      [outsider, 'GET', `/v1/orgs/missing/sso`, undefined, 404],
    ];
    for (const [as, method, url, body, status, message] of cases) expectError(await g.call(as, method, url, body), status, message);
    expectError(await g.call(null, 'GET', `/v1/orgs/${orgId}/saml`), 401);
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/saml`)).json()).toEqual({ count: 0, items: [] });
  });
});

describe('translation settings', () => {
  it('creates (201), lists, gets, replaces with PUT and deletes (205)', async ({ g, team: { owner, editor, orgId } }) => {
    const created = await g.call(owner, 'POST', `/v1/orgs/${orgId}/translations`, { title: 'French docs', languages: ['fr', 'de-ch'] });
    expect(created.statusCode).toBe(201);
    const t = created.json();
    expect(t).toMatchObject({ object: 'translation-settings', title: 'French docs', languages: ['fr', 'de-CH'], permissions: { view: true, edit: true } });
    expect(t.urls.location).toBe(`http://127.0.0.1:8080/v1/orgs/${orgId}/translations/${t.id}`);
    expect((await g.call(editor, 'GET', `/v1/orgs/${orgId}/translations`)).json()).toMatchObject({ count: 1, items: [{ id: t.id, permissions: { edit: false } }] });
    expect((await g.call(editor, 'GET', `/v1/orgs/${orgId}/translations/${t.id}`)).statusCode).toBe(200);
    const put = await g.call(owner, 'PUT', `/v1/orgs/${orgId}/translations/${t.id}`, { title: 'French' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ title: 'French', languages: ['fr', 'de-CH'] });
    const deleted = await g.call(owner, 'DELETE', `/v1/orgs/${orgId}/translations/${t.id}`);
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/translations/${t.id}`), 404);
  });

  it('answers bad input and other callers with the error body, writing nothing', async ({ g, team: { owner, editor, outsider, orgId } }) => {
    const cases: [TestUser, Method, string, unknown, number, RegExp?][] = [
      [owner, 'POST', `/v1/orgs/${orgId}/translations`, {}, 400, /title/],
      [owner, 'POST', `/v1/orgs/${orgId}/translations`, { title: '' }, 400, /title/],
      [owner, 'POST', `/v1/orgs/${orgId}/translations`, { title: 'x'.repeat(101) }, 400, /title/],
      [owner, 'POST', `/v1/orgs/${orgId}/translations`, { title: 'Ok', languages: 'fr' }, 400, /languages/],
      [owner, 'POST', `/v1/orgs/${orgId}/translations`, { title: 'Ok', languages: ['not a tag'] }, 400, /languages\[0\]/],
      [owner, 'PUT', `/v1/orgs/${orgId}/translations/missing`, { title: 'Ok' }, 404],
      [owner, 'GET', `/v1/orgs/${orgId}/translations?limit=1001`, undefined, 400, /limit/],
      [editor, 'POST', `/v1/orgs/${orgId}/translations`, { title: 'Mine' }, 403],
      [outsider, 'GET', `/v1/orgs/${orgId}/translations`, undefined, 404],
      [outsider, 'POST', `/v1/orgs/${orgId}/translations`, { title: 'Mine' }, 404],
    ];
    for (const [as, method, url, body, status, message] of cases) expectError(await g.call(as, method, url, body), status, message);
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/translations`)).json()).toEqual({ count: 0, items: [] });
  });
});
