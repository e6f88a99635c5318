import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { Role } from '@quire/service-kit';
import type { TestUser } from '@quire/orgs/testing';
import { bearer, startGateway } from './harness.ts';

// Beyond the reference, what a user needs around members: invitations by email, a team's
// members, and the subdomain lookup (GitBook's shapes).

let g: Awaited<ReturnType<typeof startGateway>>;
let owner: TestUser;
let reader: TestUser;
let outsider: TestUser;
let orgId: string;

beforeAll(async () => {
  g = await startGateway();
  [owner, reader, outsider] = await Promise.all([g.orgs.user('owner'), g.orgs.user('reader'), g.orgs.user('outsider')]);
  orgId = (await g.orgs.organization(owner, [[reader, Role.ROLE_READ]])).id;
});
afterAll(() => g?.stop());

const call = (as: TestUser | null, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  g.app.inject({ method, url, headers: as ? bearer(as.token) : {}, ...(payload ? { payload } : {}) });

function expectError(res: LightMyRequestResponse, status: number, message?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ error: { code: status, message: message ? expect.stringMatching(message) : expect.any(String) } });
}

describe('invitations, team members and subdomains', () => {
  it('invites people by email with a role each or one for all', async () => {
    const res = await call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ada@example.com', { email: 'bob@example.com', role: 'edit' }], role: 'comment' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ users: [expect.any(String), expect.any(String)], invited: 2, failedSSOEmails: [] });
    const roles = (await call(owner, 'GET', `/v1/orgs/${orgId}/members?order=asc`)).json().items.map((m: { user: { email: string }; role: string }) => [m.user.email, m.role]);
    expect(roles).toEqual(expect.arrayContaining([['ada@example.com', 'comment'], ['bob@example.com', 'edit']]));
    const again = (await call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ada@example.com'] })).json();
    expect(again.invited).toBe(0);
  });

  it('refuses bad invitations and other callers, adding nobody', async () => {
    const before = (await call(owner, 'GET', `/v1/orgs/${orgId}/members`)).json().count;
    expectError(await call(owner, 'POST', `/v1/orgs/${orgId}/invites`, {}), 400, /emails/);
    expectError(await call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: [] }), 400, /emails/);
    expectError(await call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ok@example.com', 'nope'] }), 400, /emails\[1\]/);
    expectError(await call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ok@example.com'], role: 'boss' }), 400, /role/);
    expectError(await call(reader, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ok@example.com'] }), 403);
    expectError(await call(outsider, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ok@example.com'] }), 404);
    expect((await call(owner, 'GET', `/v1/orgs/${orgId}/members`)).json().count).toBe(before);
  });

  it("lists a team's members", async () => {
    const team = (await call(owner, 'PUT', `/v1/orgs/${orgId}/teams`, { title: 'Readers', members: [reader.id] })).json();
    const res = await call(reader, 'GET', `/v1/orgs/${orgId}/teams/${team.id}/members`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: 1, items: [{ organization: { object: 'member', id: reader.id, teams: 1 }, team: { role: 'member' }, permissions: { view: true } }] });
    expectError(await call(outsider, 'GET', `/v1/orgs/${orgId}/teams/${team.id}/members`), 404);
    expectError(await call(reader, 'GET', `/v1/orgs/${orgId}/teams/${team.id}/members?limit=1001`), 400, /limit/);
  });

  it('answers what a subdomain points to', async () => {
    await call(owner, 'PATCH', `/v1/orgs/${orgId}`, { hostname: 'people-co' });
    const res = await call(outsider, 'GET', '/v1/subdomains/people-co');
    expect(res.json()).toEqual({ object: 'subdomain', subdomain: 'people-co', target: { type: 'organization', organization: orgId }, isActive: true });
    expectError(await call(outsider, 'GET', '/v1/subdomains/nobody-at-all'), 404);
    expectError(await call(outsider, 'GET', '/v1/subdomains/NO'), 400, /subdomain/);
    expectError(await call(null, 'GET', '/v1/subdomains/people-co'), 401);
  });
});
