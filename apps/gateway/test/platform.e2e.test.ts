import { describe, expect, test } from 'vitest';
import type { TestUser } from '@quire/orgs/testing';
import { SERVICE_NAMES } from '@quire/proto';
import { bearer, type Gateway } from './harness.ts';
import { ownGateway } from './fixtures.ts';

// What the gateway does around the operations: docs, health, request ids, rate limits.

const it = test.extend<{ fivePerMinuteGateway: Gateway; orgsDownGateway: Gateway; user: TestUser }>({
  // Its own gateway: five calls a minute per token.
  fivePerMinuteGateway: ownGateway({ RATE_LIMIT_PER_MINUTE: '5' }),
  // Nothing listens on port 1: the gateway's orgs channel never connects.
  orgsDownGateway: ownGateway({ ORGS_URL: '127.0.0.1:1' }),
  /** A new user: a token no test has spent calls of. */
  user: async ({ fivePerMinuteGateway: g }, use) => use(await g.orgs.user('limited')),
});

describe('gateway platform', () => {
  it('serves the OpenAPI 3.1 document without a token, with every operation of the routes', async ({ fivePerMinuteGateway: g }) => {
    const res = await g.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    for (const id of [
      'listOrganizationsForAuthenticatedUser',
      'getOrganizationById',
      'updateOrganizationById',
      'deleteOrganizationInviteById',
      'getOrganizationsForEmailDomain',
      'listMembersInOrganizationById',
      'getMemberInOrganizationById',
      'updateMemberInOrganizationById',
      'removeMemberFromOrganizationById',
      'updateOrganizationMemberLastSeenAt',
      'setUserAsSSOMemberForOrganization',
      'listTeamsForOrganizationMember',
      'listTeamsInOrganizationById',
      'createOrganizationTeam',
      'getTeamInOrganizationById',
      'updateTeamInOrganizationById',
      'removeTeamFromOrganizationById',
      'getAuthenticatedUser',
      'getUserById',
      'createOrganization',
      'listSAMLProvidersInOrganizationById',
      'createOrganizationSAMLProvider',
      'getOrganizationSAMLProviderById',
      'updateOrganizationSAMLProvider',
      'deleteOrganizationSAMLProvider',
      'listSSOProviderLoginsInOrganization',
      'listTranslations',
      'createTranslation',
      'getTranslation',
      'updateTranslation',
      'deleteTranslation',
    ]) {
      expect(ops).toContain(id);
    }
    expect(doc.paths['/v1/orgs/{organizationId}/members'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'order', 'role', 'search', 'sort']),
    );
  });

  it('documents the sign-in family, the OIDC providers, API tokens and the audit log', async ({ fivePerMinuteGateway: g }) => {
    const doc = (await g.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const ops = new Map<string, { path: string; method: string; op: { security?: unknown[]; tags?: string[] } }>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string; security?: unknown[] }>>)) {
      for (const [method, op] of Object.entries(item)) ops.set(op.operationId, { path, method, op });
    }
    const expected: [string, string, string][] = [
      ['signIn', 'post', '/auth/sign-in'],
      ['signOut', 'post', '/auth/sign-out'],
      ['signOutEverywhere', 'post', '/auth/sign-out-everywhere'],
      ['getSession', 'get', '/auth/session'],
      ['changePassword', 'post', '/auth/password'],
      ['listSignInProviders', 'get', '/auth/providers'],
      ['startOIDCSignIn', 'get', '/auth/oidc/{providerId}/start'],
      ['finishOIDCSignIn', 'get', '/auth/oidc/{providerId}/callback'],
      ['getSAMLServiceProviderMetadata', 'get', '/auth/saml/{samlProviderId}/metadata'],
      ['startSAMLSignIn', 'get', '/auth/saml/{samlProviderId}/start'],
      ['samlAssertionConsumerService', 'post', '/auth/saml/{samlProviderId}/acs'],
      ['listOIDCProvidersInOrganizationById', 'get', '/v1/orgs/{organizationId}/oidc'],
      ['createOrganizationOIDCProvider', 'post', '/v1/orgs/{organizationId}/oidc'],
      ['getOrganizationOIDCProviderById', 'get', '/v1/orgs/{organizationId}/oidc/{oidcProviderId}'],
      ['updateOrganizationOIDCProvider', 'patch', '/v1/orgs/{organizationId}/oidc/{oidcProviderId}'],
      ['deleteOrganizationOIDCProvider', 'delete', '/v1/orgs/{organizationId}/oidc/{oidcProviderId}'],
      ['listUserApiTokens', 'get', '/v1/user/tokens'],
      ['createUserApiToken', 'post', '/v1/user/tokens'],
      ['revokeUserApiToken', 'delete', '/v1/user/tokens/{tokenId}'],
      ['listOrganizationAuditLog', 'get', '/v1/orgs/{organizationId}/audit-log'],
    ];
    for (const [id, method, path] of expected) expect(ops.get(id), id).toMatchObject({ method, path });
    // Signing in takes no credential; the session's own operations take the cookie.
    expect(ops.get('signIn')!.op.security).toEqual([]);
    expect(ops.get('getSession')!.op.security).toEqual([{ session: [] }]);
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
  });

  it('serves the browsable reference at /docs', async ({ fivePerMinuteGateway: g }) => {
    const res = await g.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/html/);
  });

  it('answers health and readiness from the services it calls', async ({ fivePerMinuteGateway: g }) => {
    expect((await g.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await g.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    const names = g.services.channels.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(Object.values(SERVICE_NAMES)));
    expect(ready.json()).toEqual({ status: 'ready', services: Object.fromEntries(names.map((n) => [n, 'serving'])) });
  });

  it('echoes a sane request id and makes one otherwise', async ({ fivePerMinuteGateway: g }) => {
    const given = await g.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await g.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'not a valid id' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('limits each token on its own and answers 429 with the error body', async ({ fivePerMinuteGateway: g, user }) => {
    const other = await g.orgs.user('other');
    for (let i = 0; i < 5; i++) expect((await g.app.inject({ method: 'GET', url: '/v1/user', headers: bearer(user.token) })).statusCode).toBe(200);
    const limited = await g.app.inject({ method: 'GET', url: '/v1/user', headers: bearer(user.token) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 429, message: expect.stringMatching(/Rate limit/) } });
    expect((await g.app.inject({ method: 'GET', url: '/v1/user', headers: bearer(other.token) })).statusCode).toBe(200);
  });
});

describe('readiness without the services', () => {
  it('is not ready when orgs does not answer', async ({ orgsDownGateway: down }) => {
    const res = await down.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().services['quire.orgs.v1.OrgsService']).toBe('unavailable');
    const call = await down.app.inject({ method: 'GET', url: '/v1/user', headers: bearer('qt_whatever') });
    expect(call.statusCode).toBe(503);
    expect(call.json()).toEqual({ error: { code: 503, message: expect.any(String) } });
  });
});
