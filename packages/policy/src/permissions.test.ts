import { describe, expect, it } from 'vitest';
import { collectionPermissions, integrationPermissions, organizationPermissions, pageEditing, Role, spacePermissions } from './index.ts';

// The API's permissions objects: their fields, each the answer of its table's row.
describe('permissions objects', () => {
  it('of an organization', () => {
    expect(organizationPermissions(Role.ROLE_CREATE)).toEqual({
      view: true,
      admin: false,
      ownTeam: false,
      createContent: true,
      createOpenApiSpec: true,
      ingestConversations: false,
      viewBilling: false,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
    });
    expect(Object.values(organizationPermissions(Role.ROLE_UNSPECIFIED)).every((v) => v === false)).toBe(true);
    expect(Object.values(organizationPermissions(Role.ROLE_ADMIN)).every((v) => v === true)).toBe(true);
  });

  it('of a collection', () => {
    expect(collectionPermissions(Role.ROLE_CREATE)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(collectionPermissions(Role.ROLE_UNSPECIFIED)).toEqual({ view: false, admin: false, viewInviteLinks: false, create: false });
  });

  it('of a space, live or locked', () => {
    expect(spacePermissions(Role.ROLE_REVIEW, { editMode: 'live' })).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: true,
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
    });
    expect(spacePermissions(Role.ROLE_ADMIN, { editMode: 'locked' })).toMatchObject({ admin: true, edit: false, triggerGitSync: false, merge: false, review: true });
  });

  it('of an integration, unlisted ones being listed', () => {
    expect(integrationPermissions(Role.ROLE_UNSPECIFIED, { visibility: 'unlisted' })).toEqual({ admin: false, install: true });
    expect(integrationPermissions(Role.ROLE_UNSPECIFIED, { visibility: 'public' })).toEqual({ admin: false, install: true });
    expect(integrationPermissions(Role.ROLE_READ, { visibility: 'private' })).toEqual({ admin: false, install: false });
    expect(integrationPermissions(Role.ROLE_ADMIN, { visibility: 'private' })).toEqual({ admin: true, install: true });
  });
});

describe('editing a change request page together', () => {
  it('writes with edit on an open or draft change request, reads with view, else not at all', () => {
    const live = { editMode: 'live' };
    const as = (role: Role, status: string, space = live) => pageEditing(spacePermissions(role, space), status);
    expect([as(Role.ROLE_EDIT, 'open'), as(Role.ROLE_EDIT, 'draft'), as(Role.ROLE_ADMIN, 'open')]).toEqual(['write', 'write', 'write']);
    expect([as(Role.ROLE_READ, 'open'), as(Role.ROLE_COMMENT, 'open'), as(Role.ROLE_EDIT, 'merged'), as(Role.ROLE_ADMIN, 'archived')]).toEqual(['read', 'read', 'read', 'read']);
    expect(as(Role.ROLE_EDIT, 'open', { editMode: 'locked' })).toBe('read');
    expect(as(Role.ROLE_UNSPECIFIED, 'open')).toBeUndefined();
  });
});
