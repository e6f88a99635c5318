import { describe, expect } from 'vitest';
import { expectError } from './harness.ts';
import { test as it } from './fixtures.ts';

// Beyond the reference, what a user needs around members: invitations by email, a team's
// members, and the subdomain lookup (GitBook's shapes).

// Each test in an organization of its own (fixtures.ts); emails and hostnames, which are unique
// across organizations, name it too.
const ownName = (name: string, orgId: string) => `${name}-${orgId.toLowerCase()}`;

describe('invitations, team members and subdomains', () => {
  it('invites people by email with a role each or one for all', async ({ g, team: { owner, orgId } }) => {
    const [ada, bob] = ['ada', 'bob'].map((name) => `${ownName(name, orgId)}@example.com`);
    const res = await g.call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: [ada, { email: bob, role: 'edit' }], role: 'comment' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ users: [expect.any(String), expect.any(String)], invited: 2, failedSSOEmails: [] });
    const roles = (await g.call(owner, 'GET', `/v1/orgs/${orgId}/members?order=asc`)).json().items.map((m: { user: { email: string }; role: string }) => [m.user.email, m.role]);
    expect(roles).toEqual(
      expect.arrayContaining([
        [ada, 'comment'],
        [bob, 'edit'],
      ]),
    );
    const again = (await g.call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: [ada] })).json();
    expect(again.invited).toBe(0);
  });

  it('refuses bad invitations and other callers, adding nobody', async ({ g, team: { owner, reader, outsider, orgId } }) => {
    const before = (await g.call(owner, 'GET', `/v1/orgs/${orgId}/members`)).json().count;
    expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/invites`, {}), 400, /emails/);
    expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: [] }), 400, /emails/);
    expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ok@example.com', 'nope'] }), 400, /emails\[1\]/);
    expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ok@example.com'], role: 'boss' }), 400, /role/);
    expectError(await g.call(reader, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ok@example.com'] }), 403);
    expectError(await g.call(outsider, 'POST', `/v1/orgs/${orgId}/invites`, { emails: ['ok@example.com'] }), 404);
    expect((await g.call(owner, 'GET', `/v1/orgs/${orgId}/members`)).json().count).toBe(before);
  });

  it("lists a team's members", async ({ g, team: { owner, reader, outsider, orgId } }) => {
    const team = (await g.call(owner, 'PUT', `/v1/orgs/${orgId}/teams`, { title: 'Readers', members: [reader.id] })).json();
    const res = await g.call(reader, 'GET', `/v1/orgs/${orgId}/teams/${team.id}/members`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: 1, items: [{ organization: { object: 'member', id: reader.id, teams: 1 }, team: { role: 'member' }, permissions: { view: true } }] });
    expectError(await g.call(outsider, 'GET', `/v1/orgs/${orgId}/teams/${team.id}/members`), 404);
    expectError(await g.call(reader, 'GET', `/v1/orgs/${orgId}/teams/${team.id}/members?limit=1001`), 400, /limit/);
  });

  it('answers what a subdomain points to', async ({ g, team: { owner, outsider, orgId } }) => {
    const subdomain = ownName('people', orgId);
    await g.call(owner, 'PATCH', `/v1/orgs/${orgId}`, { hostname: subdomain });
    const res = await g.call(outsider, 'GET', `/v1/subdomains/${subdomain}`);
    expect(res.json()).toEqual({ object: 'subdomain', subdomain, target: { type: 'organization', organization: orgId }, isActive: true });
    expectError(await g.call(outsider, 'GET', '/v1/subdomains/nobody-at-all'), 404);
    expectError(await g.call(outsider, 'GET', '/v1/subdomains/NO'), 400, /subdomain/);
    expectError(await g.call(null, 'GET', `/v1/subdomains/${subdomain}`), 401);
  });
});
