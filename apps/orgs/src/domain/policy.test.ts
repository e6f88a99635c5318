import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionDeniedError, Role } from '@quire/service-kit';
import { authorize, can, canManageTeam, organizationPermissions } from './policy.ts';

describe('organization policy', () => {
  it('gives each role what it should, strongest first', () => {
    expect(can(Role.ROLE_ADMIN, 'admin')).toBe(true);
    expect(can(Role.ROLE_CREATE, 'admin')).toBe(false);
    expect(can(Role.ROLE_CREATE, 'createContent')).toBe(true);
    expect(can(Role.ROLE_EDIT, 'createContent')).toBe(false);
    expect(can(Role.ROLE_READ, 'listMembers')).toBe(true);
    expect(can(Role.ROLE_GUEST, 'listMembers')).toBe(false);
    expect(can(Role.ROLE_GUEST, 'view')).toBe(true);
    expect(can(Role.ROLE_UNSPECIFIED, 'view')).toBe(false);
  });

  it('hides the organization from non-members and refuses members without the role', () => {
    expect(() => authorize(Role.ROLE_UNSPECIFIED, 'view')).toThrow(NotFoundError);
    expect(() => authorize(Role.ROLE_EDIT, 'manageTeams')).toThrow(PermissionDeniedError);
    expect(() => authorize(Role.ROLE_ADMIN, 'manageTeams')).not.toThrow();
  });

  it('computes the permissions booleans for the caller', () => {
    expect(organizationPermissions(Role.ROLE_READ)).toMatchObject({ view: true, admin: false, listMembers: true, createContent: false });
    expect(Object.values(organizationPermissions(Role.ROLE_UNSPECIFIED)).every((v) => v === false)).toBe(true);
    expect(Object.values(organizationPermissions(Role.ROLE_ADMIN)).every((v) => v === true)).toBe(true);
  });

  it('lets team owners manage their team, and admins every team', () => {
    expect(canManageTeam(Role.ROLE_READ, true)).toBe(true);
    expect(canManageTeam(Role.ROLE_READ, false)).toBe(false);
    expect(canManageTeam(Role.ROLE_ADMIN, false)).toBe(true);
    expect(canManageTeam(Role.ROLE_UNSPECIFIED, true)).toBe(false);
  });
});
