import { describe, expect } from 'vitest';
import { API_ROLES, Role, roleFromApi } from '@quire/policy';
import type { TestUser } from '@quire/orgs/testing';
import { bearer, type Gateway } from './harness.ts';
import { ownGateway, test as base } from './fixtures.ts';

// Every operation of the organization area, called by a member with each role,
// by a guest, by a member of another organization and with no token. Reads that only members
// may do answer 404 to outsiders; changes that only admins may do answer 403 to other members.

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Caller = (typeof API_ROLES)[number] | 'guest' | 'outsider' | 'anonymous';
const CALLERS: Caller[] = [...API_ROLES, 'guest', 'outsider', 'anonymous'];

/** An organization with a member at each role and a guest, a team of it, and an outsider with an organization of their own. */
interface Matrix {
  orgId: string;
  teamId: string;
  users: Map<Caller, TestUser>;
}

const test = base.extend<{ unlimited: Gateway; matrix: Matrix }>({
  // Its own gateway: every rule's calls from every caller, above the default rate limit.
  unlimited: ownGateway({ RATE_LIMIT_PER_MINUTE: '100000' }),
  matrix: async ({ unlimited: g }, use) => {
    const named = CALLERS.filter((c) => c !== 'anonymous');
    const users = new Map(await Promise.all(named.map(async (c) => [c, await g.orgs.user(c)] as const)));
    const members: [TestUser, Role][] = [
      ...API_ROLES.filter((r) => r !== 'admin').map((r) => [users.get(r)!, roleFromApi(r)] as [TestUser, Role]),
      [users.get('guest')!, Role.ROLE_GUEST],
    ];
    const [org] = await Promise.all([g.orgs.organization(users.get('admin')!, members), g.orgs.organization(users.get('outsider')!, [], 'Elsewhere')]);
    const team = await g.app.inject({ method: 'PUT', url: `/v1/orgs/${org.id}/teams`, headers: bearer(users.get('admin')!.token), payload: { title: 'Fixed' } });
    await use({ orgId: org.id, teamId: team.json().id, users });
  },
});

/** Which callers succeed; everyone else gets the status given for non-members and for members. */
interface Rule {
  method: Method;
  url: (m: Matrix) => string;
  body?: unknown;
  allowed: Caller[];
  ok: number;
}

const admins: Caller[] = ['admin'];
const members: Caller[] = [...API_ROLES];
const everyMember: Caller[] = [...API_ROLES, 'guest'];

const rules: Rule[] = [
  { method: 'GET', url: ({ orgId }) => `/v1/orgs/${orgId}`, allowed: everyMember, ok: 200 },
  { method: 'PATCH', url: ({ orgId }) => `/v1/orgs/${orgId}`, body: { ai: true }, allowed: admins, ok: 200 },
  { method: 'GET', url: ({ orgId }) => `/v1/orgs/${orgId}/members`, allowed: members, ok: 200 },
  { method: 'GET', url: ({ orgId, users }) => `/v1/orgs/${orgId}/members/${users.get('read')!.id}`, allowed: members, ok: 200 },
  { method: 'PATCH', url: ({ orgId, users }) => `/v1/orgs/${orgId}/members/${users.get('read')!.id}`, body: { role: 'read' }, allowed: admins, ok: 200 },
  { method: 'POST', url: ({ orgId, users }) => `/v1/orgs/${orgId}/members/${users.get('read')!.id}/sso`, allowed: admins, ok: 200 },
  { method: 'GET', url: ({ orgId, users }) => `/v1/orgs/${orgId}/members/${users.get('read')!.id}/teams`, allowed: members, ok: 200 },
  { method: 'POST', url: ({ orgId }) => `/v1/orgs/${orgId}/ping`, allowed: everyMember, ok: 200 },
  { method: 'GET', url: ({ orgId }) => `/v1/orgs/${orgId}/teams`, allowed: members, ok: 200 },
  { method: 'GET', url: ({ orgId, teamId }) => `/v1/orgs/${orgId}/teams/${teamId}`, allowed: members, ok: 200 },
  { method: 'PATCH', url: ({ orgId, teamId }) => `/v1/orgs/${orgId}/teams/${teamId}`, body: { title: 'Fixed' }, allowed: admins, ok: 200 },
  { method: 'PUT', url: ({ orgId, teamId }) => `/v1/orgs/${orgId}/teams/${teamId}/members`, body: { add: [] }, allowed: admins, ok: 204 },
  { method: 'GET', url: ({ orgId }) => `/v1/orgs/${orgId}/link-invites`, allowed: admins, ok: 200 },
  { method: 'GET', url: ({ orgId }) => `/v1/orgs/${orgId}/saml`, allowed: admins, ok: 200 },
  { method: 'GET', url: ({ orgId }) => `/v1/orgs/${orgId}/translations`, allowed: members, ok: 200 },
];

/** Non-members and a missing token never learn more than a missing organization would tell. */
function expected(rule: Rule, caller: Caller): number {
  if (rule.allowed.includes(caller)) return rule.ok;
  if (caller === 'anonymous') return 401;
  if (caller === 'outsider') return 404;
  // Members see the organization, so what their role does not allow is forbidden, not hidden.
  return 403;
}

describe('authorization matrix of the organization area', () => {
  for (const rule of rules) {
    test(`${rule.method} ${rule.url.toString().replace(/^\(\{[^}]*\}\) => `|`$/g, '')}`, async ({ unlimited: g, matrix }) => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const caller of CALLERS) {
        const user = matrix.users.get(caller);
        const res = await g.app.inject({
          method: rule.method,
          url: rule.url(matrix),
          headers: user ? bearer(user.token) : {},
          ...(rule.body === undefined ? {} : { payload: rule.body as object }),
        });
        got[caller] = res.statusCode;
        want[caller] = expected(rule, caller);
        if (res.statusCode >= 400) expect(res.json().error.code).toBe(res.statusCode);
      }
      expect(got).toEqual(want);
    });
  }
});
