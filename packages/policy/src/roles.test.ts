import { describe, expect, it } from 'vitest';
import { API_ROLES, inviteRedundant, isRole, mayGrant, Role, roleFromApi, roleOr, roleToApi, strongest } from './index.ts';

describe('roles', () => {
  it('round-trips every API role, null being a guest', () => {
    for (const r of API_ROLES) expect(roleToApi(roleFromApi(r))).toBe(r);
    expect(roleFromApi(null)).toBe(Role.ROLE_GUEST);
    expect(roleToApi(Role.ROLE_GUEST)).toBeNull();
    expect(roleToApi(Role.ROLE_UNSPECIFIED)).toBeNull();
  });

  it('orders roles strongest first: admin, create, review, edit, comment, read, then guest', () => {
    const ordered = [...API_ROLES.map(roleFromApi), Role.ROLE_GUEST, Role.ROLE_UNSPECIFIED];
    ordered.forEach((stronger, i) =>
      ordered.slice(i + 1).forEach((weaker) => {
        expect(strongest(stronger, weaker)).toBe(stronger);
        expect(strongest(weaker, stronger)).toBe(stronger);
      }),
    );
  });

  it('takes UNSPECIFIED for no role at all, a guest being one', () => {
    expect(isRole(Role.ROLE_UNSPECIFIED)).toBe(false);
    expect(isRole(undefined)).toBe(false);
    expect(isRole(Role.ROLE_GUEST)).toBe(true);
    expect(roleOr(Role.ROLE_UNSPECIFIED, Role.ROLE_READ)).toBe(Role.ROLE_READ);
    expect(roleOr(Role.ROLE_GUEST, Role.ROLE_READ)).toBe(Role.ROLE_GUEST);
  });
});

describe('grants', () => {
  it('gives no more than the granter holds', () => {
    expect(mayGrant(Role.ROLE_ADMIN, Role.ROLE_ADMIN)).toBe(true);
    expect(mayGrant(Role.ROLE_EDIT, Role.ROLE_READ)).toBe(true);
    expect(mayGrant(Role.ROLE_EDIT, Role.ROLE_REVIEW)).toBe(false);
  });
});

describe('link invites', () => {
  it('are redundant when the default role gives as much', () => {
    expect(inviteRedundant(Role.ROLE_EDIT, Role.ROLE_READ)).toBe(true);
    expect(inviteRedundant(Role.ROLE_EDIT, Role.ROLE_EDIT)).toBe(true);
    expect(inviteRedundant(Role.ROLE_READ, Role.ROLE_GUEST)).toBe(true);
    expect(inviteRedundant(Role.ROLE_READ, Role.ROLE_EDIT)).toBe(false);
    // A guest default gives nothing to compare with.
    expect(inviteRedundant(Role.ROLE_GUEST, Role.ROLE_GUEST)).toBe(false);
  });
});
