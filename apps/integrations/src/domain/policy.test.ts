import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionDeniedError } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { authorizeOwnerAdmin, authorizePublisher } from './policy.ts';

describe('integration policy', () => {
  it('lets only admins publish: outsiders get NOT_FOUND, other members PERMISSION_DENIED', () => {
    expect(() => authorizePublisher(Role.ROLE_UNSPECIFIED, 'acme')).toThrow(NotFoundError);
    expect(() => authorizePublisher(Role.ROLE_UNSPECIFIED, 'acme')).toThrow(/organization: "acme" not found/);
    expect(() => authorizePublisher(Role.ROLE_CREATE, 'acme')).toThrow(PermissionDeniedError);
    expect(() => authorizePublisher(Role.ROLE_ADMIN, 'acme')).not.toThrow();
    expect(() => authorizeOwnerAdmin(Role.ROLE_EDIT, 'x')).toThrow(PermissionDeniedError);
    expect(() => authorizeOwnerAdmin(Role.ROLE_ADMIN, 'x')).not.toThrow();
  });
});
