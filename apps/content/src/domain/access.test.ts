import { describe, expect, it } from 'vitest';
import { collectionPermissions, Role, spacePermissions } from '@quire/policy';
import { READER_SPACE_PERMISSIONS } from '../../test/fixtures.ts';
import { collectionRole, spaceRole, subtree, type Access, type CollectionNode, type Level } from './access.ts';

const col = (id: string, parentId: string | null, defaultLevel: Level = 'inherit'): CollectionNode => ({ id, parentId, defaultLevel });

function access(orgRole: Role, collections: CollectionNode[] = [], grants: { collections?: [string, Role][]; spaces?: [string, Role][] } = {}): Access {
  return {
    orgRole,
    collections: new Map(collections.map((c) => [c.id, c])),
    collectionGrants: new Map(grants.collections ?? []),
    spaceGrants: new Map(grants.spaces ?? []),
  };
}

const tree = [col('top', null), col('locked', 'top', 'read'), col('inner', 'locked'), col('hidden', null, 'guest')];
const space = (parentId: string | null, defaultLevel: Level = 'inherit', visibility = 'private') => ({ id: 's', parentId, defaultLevel, visibility });

describe('spaceRole', () => {
  it('inherits the organization role when every level inherits', () => {
    expect(spaceRole(access(Role.ROLE_EDIT, tree), space('top'))).toBe(Role.ROLE_EDIT);
    expect(spaceRole(access(Role.ROLE_READ, tree), space(null))).toBe(Role.ROLE_READ);
  });

  it('takes the nearest explicit default level, up the collections', () => {
    expect(spaceRole(access(Role.ROLE_EDIT, tree), space('inner'))).toBe(Role.ROLE_READ);
    expect(spaceRole(access(Role.ROLE_READ, tree), space('inner', 'edit'))).toBe(Role.ROLE_EDIT);
    expect(spaceRole(access(Role.ROLE_EDIT, tree), space('hidden'))).toBe(Role.ROLE_UNSPECIFIED);
  });

  it('keeps organization admins admins, whatever the levels', () => {
    expect(spaceRole(access(Role.ROLE_ADMIN, tree), space('hidden', 'guest'))).toBe(Role.ROLE_ADMIN);
  });

  it('adds the grants on the space and its ancestors, for members and guests only', () => {
    expect(spaceRole(access(Role.ROLE_READ, tree, { spaces: [['s', Role.ROLE_ADMIN]] }), space('hidden'))).toBe(Role.ROLE_ADMIN);
    expect(spaceRole(access(Role.ROLE_GUEST, tree, { collections: [['top', Role.ROLE_COMMENT]] }), space('inner'))).toBe(Role.ROLE_COMMENT);
    expect(spaceRole(access(Role.ROLE_GUEST, tree), space('top'))).toBe(Role.ROLE_UNSPECIFIED);
    expect(spaceRole(access(Role.ROLE_UNSPECIFIED, tree, { spaces: [['s', Role.ROLE_ADMIN]] }), space(null))).toBe(Role.ROLE_UNSPECIFIED);
  });

  it('lets anyone read public and unlisted spaces, and in-collection ones follow their collection', () => {
    expect(spaceRole(access(Role.ROLE_UNSPECIFIED), space(null, 'inherit', 'public'))).toBe(Role.ROLE_READ);
    expect(spaceRole(access(Role.ROLE_UNSPECIFIED), space(null, 'inherit', 'unlisted'))).toBe(Role.ROLE_READ);
    expect(spaceRole(access(Role.ROLE_UNSPECIFIED), space(null, 'inherit', 'share-link'))).toBe(Role.ROLE_UNSPECIFIED);
    expect(spaceRole(access(Role.ROLE_EDIT, tree), space('top', 'guest', 'in-collection'))).toBe(Role.ROLE_EDIT);
  });
});

describe('collectionRole and subtree', () => {
  it('inherits, restricts and grants like spaces', () => {
    expect(collectionRole(access(Role.ROLE_CREATE, tree), tree[2]!)).toBe(Role.ROLE_READ);
    expect(collectionRole(access(Role.ROLE_CREATE, tree, { collections: [['locked', Role.ROLE_ADMIN]] }), tree[2]!)).toBe(Role.ROLE_ADMIN);
    expect(collectionRole(access(Role.ROLE_ADMIN, tree), tree[3]!)).toBe(Role.ROLE_ADMIN);
  });

  it('lists a collection and everything below it', () => {
    expect(subtree(new Map(tree.map((c) => [c.id, c])), 'top').sort()).toEqual(['inner', 'locked', 'top']);
  });
});

describe('permissions', () => {
  it('follow the role, and a locked space takes no edits', () => {
    expect(spacePermissions(Role.ROLE_READ, { editMode: 'live' })).toEqual(READER_SPACE_PERMISSIONS);
    expect(spacePermissions(Role.ROLE_ADMIN, { editMode: 'live' })).toMatchObject({ admin: true, edit: true, merge: true, review: true });
    expect(spacePermissions(Role.ROLE_ADMIN, { editMode: 'locked' })).toMatchObject({ admin: true, edit: false, merge: false });
    expect(collectionPermissions(Role.ROLE_CREATE)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(collectionPermissions(Role.ROLE_UNSPECIFIED)).toEqual({ view: false, admin: false, viewInviteLinks: false, create: false });
  });
});
