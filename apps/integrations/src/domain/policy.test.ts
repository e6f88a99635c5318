import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionDeniedError, Role } from '@quire/service-kit';
import { authorizeOwnerAdmin, authorizePublisher, canView, integrationPermissions } from './policy.ts';

describe('integration policy', () => {
  it('hides private integrations from non-members only', () => {
    expect(canView('public', Role.ROLE_UNSPECIFIED)).toBe(true);
    expect(canView('unlisted', Role.ROLE_UNSPECIFIED)).toBe(true);
    expect(canView('private', Role.ROLE_UNSPECIFIED)).toBe(false);
    expect(canView('private', Role.ROLE_READ)).toBe(true);
  });

  it('lets only admins publish: outsiders get NOT_FOUND, other members PERMISSION_DENIED', () => {
    expect(() => authorizePublisher(Role.ROLE_UNSPECIFIED, 'acme')).toThrow(NotFoundError);
    expect(() => authorizePublisher(Role.ROLE_UNSPECIFIED, 'acme')).toThrow(/organization: "acme" not found/);
    expect(() => authorizePublisher(Role.ROLE_CREATE, 'acme')).toThrow(PermissionDeniedError);
    expect(() => authorizePublisher(Role.ROLE_ADMIN, 'acme')).not.toThrow();
    expect(() => authorizeOwnerAdmin(Role.ROLE_EDIT, 'x')).toThrow(PermissionDeniedError);
    expect(() => authorizeOwnerAdmin(Role.ROLE_ADMIN, 'x')).not.toThrow();
  });

  it('computes the permissions booleans for the caller', () => {
    expect(integrationPermissions('public', Role.ROLE_UNSPECIFIED)).toEqual({ admin: false, install: true });
    expect(integrationPermissions('private', Role.ROLE_READ)).toEqual({ admin: false, install: false });
    expect(integrationPermissions('private', Role.ROLE_ADMIN)).toEqual({ admin: true, install: true });
  });
});
