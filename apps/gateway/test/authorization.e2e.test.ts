import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROLES, Role, roleFromApi } from '@quire/policy';
import type { TestUser } from '@quire/orgs/testing';
import { bearer, startGateway } from './harness.ts';

// Every operation of the organization area, called by a member with each role,
// by a guest, by a member of another organization and with no token. Reads that only members
// may do answer 404 to outsiders; changes that only admins may do answer 403 to other members.

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Caller = (typeof API_ROLES)[number] | 'guest' | 'outsider' | 'anonymous';
const CALLERS: Caller[] = [...API_ROLES, 'guest', 'outsider', 'anonymous'];

let g: Awaited<ReturnType<typeof startGateway>>;
const users = new Map<Caller, TestUser>();
let orgId: string;
let teamId: string;

beforeAll(async () => {
  g = await startGateway({ RATE_LIMIT_PER_MINUTE: '100000' });
  for (const c of CALLERS) if (c !== 'anonymous') users.set(c, await g.orgs.user(c));
  const members: [TestUser, Role][] = [
    ...API_ROLES.filter((r) => r !== 'admin').map((r) => [users.get(r)!, roleFromApi(r)] as [TestUser, Role]),
    [users.get('guest')!, Role.ROLE_GUEST],
  ];
  orgId = (await g.orgs.organization(users.get('admin')!, members)).id;
  await g.orgs.organization(users.get('outsider')!, [], 'Elsewhere');
  teamId = (await g.app.inject({ method: 'PUT', url: `/v1/orgs/${orgId}/teams`, headers: bearer(users.get('admin')!.token), payload: { title: 'Fixed' } })).json().id;
});
afterAll(() => g?.stop());

/** Which callers succeed; everyone else gets the status given for non-members and for members. */
interface Rule {
  method: Method;
  url: () => string;
  body?: unknown;
  allowed: Caller[];
  ok: number;
}

const admins: Caller[] = ['admin'];
const members: Caller[] = [...API_ROLES];
const everyMember: Caller[] = [...API_ROLES, 'guest'];

const rules: Rule[] = [
  { method: 'GET', url: () => `/v1/orgs/${orgId}`, allowed: everyMember, ok: 200 },
  { method: 'PATCH', url: () => `/v1/orgs/${orgId}`, body: { ai: true }, allowed: admins, ok: 200 },
  { method: 'GET', url: () => `/v1/orgs/${orgId}/members`, allowed: members, ok: 200 },
  { method: 'GET', url: () => `/v1/orgs/${orgId}/members/${users.get('read')!.id}`, allowed: members, ok: 200 },
  { method: 'PATCH', url: () => `/v1/orgs/${orgId}/members/${users.get('read')!.id}`, body: { role: 'read' }, allowed: admins, ok: 200 },
  { method: 'POST', url: () => `/v1/orgs/${orgId}/members/${users.get('read')!.id}/sso`, allowed: admins, ok: 200 },
  { method: 'GET', url: () => `/v1/orgs/${orgId}/members/${users.get('read')!.id}/teams`, allowed: members, ok: 200 },
  { method: 'POST', url: () => `/v1/orgs/${orgId}/ping`, allowed: everyMember, ok: 200 },
  { method: 'GET', url: () => `/v1/orgs/${orgId}/teams`, allowed: members, ok: 200 },
  { method: 'GET', url: () => `/v1/orgs/${orgId}/teams/${teamId}`, allowed: members, ok: 200 },
  { method: 'PATCH', url: () => `/v1/orgs/${orgId}/teams/${teamId}`, body: { title: 'Fixed' }, allowed: admins, ok: 200 },
  { method: 'PUT', url: () => `/v1/orgs/${orgId}/teams/${teamId}/members`, body: { add: [] }, allowed: admins, ok: 204 },
  { method: 'GET', url: () => `/v1/orgs/${orgId}/link-invites`, allowed: admins, ok: 200 },
  { method: 'GET', url: () => `/v1/orgs/${orgId}/saml`, allowed: admins, ok: 200 },
  { method: 'GET', url: () => `/v1/orgs/${orgId}/translations`, allowed: members, ok: 200 },
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
    it(`${rule.method} ${rule.url.toString().replace(/^\(\) => `|`$/g, '')}`, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const caller of CALLERS) {
        const user = users.get(caller);
        const res = await g.app.inject({
          method: rule.method,
          url: rule.url(),
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
