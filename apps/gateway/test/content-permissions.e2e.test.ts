import { describe, expect } from 'vitest';
import { Role } from '@quire/policy';
import type { TestUser } from '@quire/orgs/testing';
import { expectError, ok, type Gateway } from './harness.ts';
import { test as base, tenant, type Tenant } from './fixtures.ts';

/** A tenant with a creator, an editor and a reader, and helpers that write in its organization as its owner (or as told). */
function permissionsOrg(g: Gateway, t: Tenant<'creator' | 'editor' | 'reader'>) {
  const { owner, orgId } = t;
  /** The users granted a role on the space, as its owner lists them. */
  const granted = async (spaceId: string) =>
    (await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/permissions/users?limit=1000`))).items as { permission: string; user: { id: string } }[];
  return {
    ...t,
    createSpace: (body: Record<string, unknown> = {}, org = orgId, as: TestUser = owner) => ok(g.call(as, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Handbook', ...body }), 201),
    createCollection: (body: Record<string, unknown> = {}) => ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/collections`, { title: 'Guides', ...body }), 201),
    roles: async (spaceId: string) => Object.fromEntries((await granted(spaceId)).map((p) => [p.user.id, p.permission])),
  };
}

const test = base.extend<{ org: ReturnType<typeof permissionsOrg>; teamId: string; otherTeamId: string }>({
  org: async ({ g }, use) => use(permissionsOrg(g, await tenant(g, { creator: Role.ROLE_CREATE, editor: Role.ROLE_EDIT, reader: Role.ROLE_READ }))),
  // A team of the organization with the editor in it, and one of the outsider's organization.
  teamId: async ({ g, org }, use) => use((await ok(g.call(org.owner, 'PUT', `/v1/orgs/${org.orgId}/teams`, { title: 'Writers', members: [org.editor.id] }), 201)).id),
  otherTeamId: async ({ g, org }, use) => use((await ok(g.call(org.outsider, 'PUT', `/v1/orgs/${org.otherOrgId}/teams`, { title: 'Outsiders', members: [] }), 201)).id),
});

describe('POST /v1/spaces/{spaceId}/permissions (inviteToSpace)', () => {
  test('grants users and teams with 204 and no body, replacing earlier grants', async ({ g, teamId, org: { owner, creator, reader, createSpace, roles } }) => {
    const space = await createSpace();
    const res = await g.call(owner, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'comment', users: [reader.id, creator.id], teams: [teamId] });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await roles(space.id)).toEqual({ [reader.id]: 'comment', [creator.id]: 'comment' });
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'review', users: [reader.id] }), 204);
    expect(await roles(space.id)).toEqual({ [reader.id]: 'review', [creator.id]: 'comment' });
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/permissions`, { role: null, users: [creator.id] }), 204);
    expect(await roles(space.id)).toEqual({ [reader.id]: 'review' });
  });

  test('refuses bad input and callers without admin, changing nothing', async ({ g, otherTeamId, org: { owner, creator, reader, outsider, createSpace, roles } }) => {
    const space = await createSpace();
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'read', users: [reader.id] }), 204);
    const before = await roles(space.id);
    const url = `/v1/spaces/${space.id}/permissions`;
    expectError(
      await g.call(owner, 'POST', url, { role: 'edit', users: [creator.id, outsider.id] }),
      400,
      new RegExp(`^users\\[1\\]: "${outsider.id}" is not a member of the organization$`),
    );
    expectError(await g.call(owner, 'POST', url, { role: 'edit', users: ['nobody'] }), 400, /^users\[0\]: "nobody" is not a member of the organization$/);
    expectError(await g.call(owner, 'POST', url, { role: 'edit', teams: [otherTeamId] }), 400, new RegExp(`^teams\\[0\\]: "${otherTeamId}" is not a team of the organization$`));
    expectError(await g.call(owner, 'POST', url, { role: 'owner', users: [creator.id] }), 400, /^body\.role: /);
    expectError(await g.call(owner, 'POST', url, { users: [creator.id] }), 400, /role/);
    expectError(await g.call(owner, 'POST', url, { role: 'edit' }), 400, /^users, teams: at least one user or team/);
    expectError(await g.call(owner, 'POST', url, { role: 'edit', users: [] }), 400, /^body\.users: /);
    expectError(await g.call(reader, 'POST', url, { role: 'admin', users: [reader.id] }), 403, new RegExp(`^Only admins of space "${space.id}" can manage its permissions$`));
    expectError(await g.call(creator, 'POST', url, { role: 'read', users: [creator.id] }), 403, /^Only admins of space/);
    expectError(await g.call(outsider, 'POST', url, { role: 'read', users: [outsider.id] }), 404, new RegExp(`^Space "${space.id}" not found$`));
    expectError(await g.call(null, 'POST', url, { role: 'read', users: [creator.id] }), 401);
    expect(await roles(space.id)).toEqual(before);
  });

  test("answers 404 for another organization's space", async ({ g, org: { owner, reader, outsider, otherOrgId, createSpace } }) => {
    const foreign = await createSpace({}, otherOrgId, outsider);
    expectError(await g.call(owner, 'POST', `/v1/spaces/${foreign.id}/permissions`, { role: 'read', users: [reader.id] }), 404, /not found/);
    expect((await ok(g.call(outsider, 'GET', `/v1/spaces/${foreign.id}/permissions/users`))).items).toEqual([]);
  });

  test('gives access: a read member shut out by defaultLevel null sees and edits the space after an edit grant', async ({ g, org: { owner, creator, reader, createSpace } }) => {
    const space = await createSpace();
    await ok(g.call(owner, 'PATCH', `/v1/spaces/${space.id}`, { defaultLevel: null }));
    expectError(await g.call(reader, 'GET', `/v1/spaces/${space.id}`), 404);
    expectError(await g.call(reader, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Mine' }), 404);
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'edit', users: [reader.id] }), 204);
    expect(await ok(g.call(reader, 'GET', `/v1/spaces/${space.id}`))).toMatchObject({ id: space.id, permissions: { view: true, edit: true, admin: false } });
    expect(await ok(g.call(reader, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Mine' }))).toMatchObject({ title: 'Mine' });
    // Editing is not administering: the grantee cannot grant further.
    expectError(await g.call(reader, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'edit', users: [creator.id] }), 403);
  });
});

describe('GET /v1/spaces/{spaceId}/permissions/users (listUserPermissionsInSpace)', () => {
  test('lists the granted users in the reference shape, by page', async ({ g, org: { owner, creator, editor, reader, createSpace } }) => {
    const space = await createSpace();
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'edit', users: [reader.id, creator.id, editor.id] }), 204);
    const all = await ok(g.call(reader, 'GET', `/v1/spaces/${space.id}/permissions/users`));
    expect(all.count).toBe(3);
    expect(all.next).toBeUndefined();
    expect(all.items).toContainEqual({
      permission: 'edit',
      user: { object: 'user', id: reader.id, displayName: 'reader', email: reader.email, urls: { location: `http://127.0.0.1:8080/v1/users/${reader.id}` } },
    });
    const first = await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}/permissions/users?limit=2`));
    expect(first).toMatchObject({ count: 2, next: { page: expect.any(String) } });
    const second = await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}/permissions/users?limit=2&page=${first.next.page}`));
    expect(second.count).toBe(1);
    expect([...first.items, ...second.items].map((p: { user: { id: string } }) => p.user.id).sort()).toEqual([reader.id, creator.id, editor.id].sort());
  });

  test('refuses a limit over 1000, a bad cursor, strangers and anonymous callers', async ({ g, org: { owner, outsider, createSpace } }) => {
    const space = await createSpace();
    const url = `/v1/spaces/${space.id}/permissions/users`;
    expectError(await g.call(owner, 'GET', `${url}?limit=1001`), 400, /^query\.limit: /);
    expectError(await g.call(owner, 'GET', `${url}?page=nope`), 400, /^page: /);
    expectError(await g.call(outsider, 'GET', url), 404, new RegExp(`^Space "${space.id}" not found$`));
    expectError(await g.call(null, 'GET', url), 401);
  });
});

describe('PATCH and DELETE /v1/spaces/{spaceId}/permissions/users/{userId}', () => {
  test("changes a user's role with 204, removes it with 205, then 204 when there is none", async ({ g, org: { owner, creator, reader, createSpace, roles } }) => {
    const space = await createSpace();
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'read', users: [reader.id, creator.id] }), 204);
    const patched = await g.call(owner, 'PATCH', `/v1/spaces/${space.id}/permissions/users/${reader.id}`, { role: 'admin' });
    expect(patched.statusCode, patched.body).toBe(204);
    expect(patched.body).toBe('');
    expect(await roles(space.id)).toEqual({ [reader.id]: 'admin', [creator.id]: 'read' });
    // The new admin manages the space's permissions.
    await ok(g.call(reader, 'PATCH', `/v1/spaces/${space.id}/permissions/users/${creator.id}`, { role: null }), 204);
    expect(await roles(space.id)).toEqual({ [reader.id]: 'admin' });
    const removed = await g.call(owner, 'DELETE', `/v1/spaces/${space.id}/permissions/users/${reader.id}`);
    expect(removed.statusCode, removed.body).toBe(205);
    expect(removed.body).toBe('');
    expect(await roles(space.id)).toEqual({});
    const again = await g.call(owner, 'DELETE', `/v1/spaces/${space.id}/permissions/users/${reader.id}`);
    expect(again.statusCode, again.body).toBe(204);
  });

  test('refuses bad input and callers without admin, changing nothing', async ({ g, org: { owner, creator, editor, reader, outsider, createSpace, roles } }) => {
    const space = await createSpace();
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'read', users: [reader.id] }), 204);
    const url = `/v1/spaces/${space.id}/permissions/users/${reader.id}`;
    expectError(await g.call(owner, 'PATCH', url, { role: 'owner' }), 400, /^body\.role: /);
    expectError(await g.call(owner, 'PATCH', url, {}), 400, /role/);
    expectError(
      await g.call(owner, 'PATCH', `/v1/spaces/${space.id}/permissions/users/${editor.id}`, { role: 'edit' }),
      404,
      new RegExp(`^user: "${editor.id}" has no permission on space`),
    );
    expectError(await g.call(reader, 'PATCH', url, { role: 'admin' }), 403, /^Only admins of space/);
    expectError(await g.call(creator, 'PATCH', url, { role: 'edit' }), 403);
    expectError(await g.call(reader, 'DELETE', url), 403, /^Only admins of space/);
    expectError(await g.call(creator, 'DELETE', url), 403);
    expectError(await g.call(outsider, 'PATCH', url, { role: 'edit' }), 404, /not found/);
    expectError(await g.call(outsider, 'DELETE', url), 404, /not found/);
    expectError(await g.call(null, 'PATCH', url, { role: 'edit' }), 401);
    expectError(await g.call(null, 'DELETE', url), 401);
    expect(await roles(space.id)).toEqual({ [reader.id]: 'read' });
  });

  test("answers 404 for another organization's space", async ({ g, org: { owner, outsider, otherOrgId, createSpace } }) => {
    const foreign = await createSpace({}, otherOrgId, outsider);
    await ok(g.call(outsider, 'POST', `/v1/spaces/${foreign.id}/permissions`, { role: 'read', users: [outsider.id] }), 204);
    expectError(await g.call(owner, 'PATCH', `/v1/spaces/${foreign.id}/permissions/users/${outsider.id}`, { role: 'edit' }), 404, /not found/);
    expectError(await g.call(owner, 'DELETE', `/v1/spaces/${foreign.id}/permissions/users/${outsider.id}`), 404, /not found/);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${foreign.id}/permissions/users`), 404, /not found/);
    expect((await ok(g.call(outsider, 'GET', `/v1/spaces/${foreign.id}/permissions/users`))).items).toMatchObject([{ permission: 'read', user: { id: outsider.id } }]);
  });
});

describe('POST /v1/collections/{collectionId}/permissions (inviteToCollection)', () => {
  test('grants with 204 and the grant reaches the spaces in the collection', async ({ g, teamId, org: { owner, editor, reader, createSpace, createCollection } }) => {
    const col = await createCollection();
    await ok(g.call(owner, 'PATCH', `/v1/collections/${col.id}`, { defaultLevel: null }));
    const space = await createSpace({ parent: col.id });
    expectError(await g.call(reader, 'GET', `/v1/collections/${col.id}`), 404);
    expectError(await g.call(reader, 'GET', `/v1/spaces/${space.id}`), 404);
    const res = await g.call(owner, 'POST', `/v1/collections/${col.id}/permissions`, { role: 'edit', users: [reader.id] });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await ok(g.call(reader, 'GET', `/v1/collections/${col.id}`))).toMatchObject({ permissions: { view: true, admin: false } });
    expect(await ok(g.call(reader, 'GET', `/v1/spaces/${space.id}`))).toMatchObject({ permissions: { view: true, edit: true } });
    await ok(g.call(owner, 'POST', `/v1/collections/${col.id}/permissions`, { role: 'read', teams: [teamId] }), 204);
    expect(await ok(g.call(editor, 'GET', `/v1/collections/${col.id}`))).toMatchObject({ permissions: { view: true, create: false } });
  });

  test('refuses bad input and callers without admin, changing nothing', async ({
    g,
    teamId,
    otherTeamId,
    org: { owner, creator, reader, outsider, otherOrgId, createCollection },
  }) => {
    const col = await createCollection();
    const url = `/v1/collections/${col.id}/permissions`;
    expectError(await g.call(owner, 'POST', url, { role: 'edit', users: [outsider.id] }), 400, new RegExp(`^users\\[0\\]: "${outsider.id}" is not a member of the organization$`));
    expectError(
      await g.call(owner, 'POST', url, { role: 'edit', teams: [teamId, otherTeamId] }),
      400,
      new RegExp(`^teams\\[1\\]: "${otherTeamId}" is not a team of the organization$`),
    );
    expectError(await g.call(owner, 'POST', url, { role: 'guest', users: [reader.id] }), 400, /^body\.role: /);
    expectError(await g.call(reader, 'POST', url, { role: 'admin', users: [reader.id] }), 403, new RegExp(`^Only admins of collection "${col.id}" can manage its permissions$`));
    expectError(await g.call(creator, 'POST', url, { role: 'admin', users: [creator.id] }), 403);
    expectError(await g.call(outsider, 'POST', url, { role: 'read', users: [outsider.id] }), 404, new RegExp(`^Collection "${col.id}" not found$`));
    expectError(await g.call(null, 'POST', url, { role: 'read', users: [reader.id] }), 401);
    // Nothing was granted: the collection still gives the reader and the creator no more than before.
    expect(await ok(g.call(reader, 'GET', `/v1/collections/${col.id}`))).toMatchObject({ permissions: { admin: false, create: false } });
    expect(await ok(g.call(creator, 'GET', `/v1/collections/${col.id}`))).toMatchObject({ permissions: { admin: false } });
    const foreign = await ok(g.call(outsider, 'POST', `/v1/orgs/${otherOrgId}/collections`, { title: 'Theirs' }), 201);
    expectError(await g.call(owner, 'POST', `/v1/collections/${foreign.id}/permissions`, { role: 'read', users: [reader.id] }), 404, /not found/);
  });
});
