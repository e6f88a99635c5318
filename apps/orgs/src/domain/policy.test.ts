import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionDeniedError } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { authorize } from './policy.ts';

describe('organization policy', () => {
  it('hides the organization from non-members and refuses members without the role', () => {
    expect(() => authorize(Role.ROLE_UNSPECIFIED, 'view')).toThrow(NotFoundError);
    expect(() => authorize(Role.ROLE_UNSPECIFIED, 'view', 'Team')).toThrow(/^Team not found$/);
    expect(() => authorize(Role.ROLE_EDIT, 'manageTeams')).toThrow(PermissionDeniedError);
    expect(() => authorize(Role.ROLE_GUEST, 'listMembers')).toThrow(/does not allow this \(listMembers\)/);
    expect(() => authorize(Role.ROLE_ADMIN, 'manageTeams')).not.toThrow();
    expect(() => authorize(Role.ROLE_GUEST, 'view')).not.toThrow();
  });
});
