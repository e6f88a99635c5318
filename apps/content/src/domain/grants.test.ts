import { describe, expect, it } from 'vitest';
import { Role } from '@quire/policy';
import { SPACE } from '@quire/proto/limits';
import { accessChanges, authorizeGrant, checkKnown, grantLevel, grantPrincipals } from './grants.ts';

describe('grantLevel', () => {
  it('stores the roles and removes on null (GUEST)', () => {
    expect(grantLevel(Role.ROLE_EDIT)).toBe('edit');
    expect(grantLevel(Role.ROLE_ADMIN)).toBe('admin');
    expect(grantLevel(Role.ROLE_GUEST)).toBeNull();
  });

  it('refuses an unset role', () => {
    expect(() => grantLevel(Role.ROLE_UNSPECIFIED)).toThrow(/^role: must be one of admin, create, review, edit, comment, read or null$/);
    expect(() => grantLevel(99 as unknown as Role)).toThrow(/^role:/);
  });
});

describe('grantPrincipals', () => {
  it('lists users then teams, each once', () => {
    expect(grantPrincipals(['u1', 'u2', 'u1'], ['t1'])).toEqual([
      { type: 'user', id: 'u1' },
      { type: 'user', id: 'u2' },
      { type: 'team', id: 't1' },
    ]);
  });

  it('needs at least one and at most the maximum of each', () => {
    expect(() => grantPrincipals([], [])).toThrow(/^users, teams: at least one/);
    const many = Array.from({ length: SPACE.principals.max + 1 }, (_, i) => `u${i}`);
    expect(() => grantPrincipals(many, [])).toThrow(/^users: at most 100 ids \(got 101\)$/);
    expect(() => grantPrincipals([], many)).toThrow(/^teams: at most 100/);
    expect(() => grantPrincipals(['u', ''], [])).toThrow(/^users\[1\]: must not be empty$/);
  });
});

describe('authorizeGrant', () => {
  it('lets only admins grant, any role or none', () => {
    expect(() => authorizeGrant(Role.ROLE_ADMIN, 'admin', 'space', 's')).not.toThrow();
    expect(() => authorizeGrant(Role.ROLE_ADMIN, null, 'space', 's')).not.toThrow();
    for (const held of [Role.ROLE_CREATE, Role.ROLE_EDIT, Role.ROLE_READ, Role.ROLE_UNSPECIFIED]) {
      expect(() => authorizeGrant(held, 'read', 'space', 's')).toThrow(/^Only admins of space "s" can manage its permissions$/);
    }
  });
});

describe('checkKnown', () => {
  it('names the first unknown id by its index', () => {
    expect(() => checkKnown('users', ['a', 'b'], new Set(['a', 'b']), 'a member')).not.toThrow();
    expect(() => checkKnown('users', ['a', 'x', 'y'], new Set(['a']), 'a member')).toThrow(/^users\[1\]: "x" is not a member of the organization$/);
    expect(() => checkKnown('teams', ['t'], new Set(), 'a team')).toThrow(/^teams\[0\]: "t" is not a team of the organization$/);
  });
});

describe('accessChanges', () => {
  it('names each changed access setting with its old and new value', () => {
    expect(accessChanges({ defaultLevel: 'inherit', visibility: 'public' }, { defaultLevel: 'read', visibility: 'public' })).toEqual({
      defaultLevel: { from: 'inherit', to: 'read' },
    });
    expect(accessChanges({ defaultLevel: 'read', visibility: 'public' }, { defaultLevel: 'edit', visibility: 'private' })).toEqual({
      defaultLevel: { from: 'read', to: 'edit' },
      visibility: { from: 'public', to: 'private' },
    });
  });

  it('is null when none changed, whatever else did (a collection has no visibility)', () => {
    expect(accessChanges({ defaultLevel: 'read', visibility: 'public' }, { defaultLevel: 'read', visibility: 'public' })).toBeNull();
    expect(accessChanges({ defaultLevel: 'read' }, { defaultLevel: 'read' })).toBeNull();
  });
});
