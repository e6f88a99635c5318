import { status } from '@grpc/grpc-js';
import pg from 'pg';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  Collection,
  CreateCollectionRequest,
  CreateSpaceRequest,
  GrantCollectionPermissionsRequest,
  GrantSpacePermissionsRequest,
  ListSpaceUserPermissionsRequest,
  ListSpaceUserPermissionsResponse,
  RemoveSpaceUserPermissionResponse,
  Space,
} from '@quire/proto/content';
import { ContentServiceService } from '@quire/proto/content';
import { promiseClient } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { connectDb, stopAll, testIdentity } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { startContent, type ContentHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: ContentHarness;
let db: pg.Client;
let owner: TestUser, creator: TestUser, editor: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string, otherOrgId: string, teamId: string, otherTeamId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startContent(orgs.address);
  db = await connectDb(h.databaseUrl);
  ({ owner, creator, editor, reader, outsider, orgId, otherOrgId } = await team(orgs, { creator: Role.ROLE_CREATE, editor: Role.ROLE_EDIT, reader: Role.ROLE_READ }));
  const createTeam = (organizationId: string, as: TestUser, members: string[]) =>
    orgs.call<{ organizationId: string; title: string; members: string[] }, { id: string }>(orgs.client.createTeam, { organizationId, title: 'Writers', members }, as.id);
  teamId = (await createTeam(orgId, owner, [reader.id])).id;
  otherTeamId = (await createTeam(otherOrgId, outsider, [])).id;
});
afterAll(() => stopAll(db, h, orgs));

const c = () => h.client;
const createSpace = (req: Partial<CreateSpaceRequest> = {}, as: TestUser = owner) =>
  h.call<CreateSpaceRequest, Space>(c().createSpace, { organizationId: orgId, title: 'Handbook', emoji: '', editMode: '', visibility: '', ...req }, as.id);
const createCollection = (req: Partial<CreateCollectionRequest> = {}) =>
  h.call<CreateCollectionRequest, Collection>(c().createCollection, { organizationId: orgId, title: 'Guides', ...req }, owner.id);
const grantSpace = (spaceId: string, req: Partial<GrantSpacePermissionsRequest>, as: TestUser | null = owner) =>
  h.call<GrantSpacePermissionsRequest, object>(c().grantSpacePermissions, { spaceId, role: Role.ROLE_EDIT, userIds: [], teamIds: [], ...req }, as?.id ?? undefined);
const grantCollection = (collectionId: string, req: Partial<GrantCollectionPermissionsRequest>, as: TestUser = owner) =>
  h.call<GrantCollectionPermissionsRequest, object>(c().grantCollectionPermissions, { collectionId, role: Role.ROLE_EDIT, userIds: [], teamIds: [], ...req }, as.id);
const list = (spaceId: string, req: Partial<ListSpaceUserPermissionsRequest> = {}, as: TestUser = owner) =>
  h.call<ListSpaceUserPermissionsRequest, ListSpaceUserPermissionsResponse>(c().listSpaceUserPermissions, { spaceId, ...req }, as.id);
const update = (spaceId: string, userId: string, role: Role, as: TestUser = owner) => h.call(c().updateSpaceUserPermission, { spaceId, userId, role }, as.id);
const remove = (spaceId: string, userId: string, as: TestUser = owner) =>
  h.call<{ spaceId: string; userId: string }, RemoveSpaceUserPermissionResponse>(c().removeSpaceUserPermission, { spaceId, userId }, as.id);
const grants = async (table: 'SpaceGrant' | 'CollectionGrant', id: string) =>
  (await db.query(`SELECT "principalType", "principalId", role FROM "${table}" WHERE "${table === 'SpaceGrant' ? 'spaceId' : 'collectionId'}" = $1 ORDER BY "principalId"`, [id]))
    .rows;

describe('space permissions', () => {
  it('grants users and teams a role, replacing earlier grants, and the role counts', async () => {
    const s = await createSpace();
    await h.call(c().updateSpace, { spaceId: s.id, defaultLevel: Role.ROLE_GUEST }, owner.id);
    await rejects(h.call(c().getSpace, { spaceId: s.id }, reader.id), status.NOT_FOUND);
    await grantSpace(s.id, { role: Role.ROLE_READ, userIds: [editor.id, editor.id], teamIds: [teamId] });
    expect(await grants('SpaceGrant', s.id)).toHaveLength(2);
    expect((await h.call<{ spaceId: string }, Space>(c().getSpace, { spaceId: s.id }, reader.id)).permissions).toMatchObject({ view: true, edit: false });
    await grantSpace(s.id, { role: Role.ROLE_EDIT, userIds: [editor.id] });
    expect(await grants('SpaceGrant', s.id)).toEqual(
      expect.arrayContaining([
        { principalType: 'user', principalId: editor.id, role: 'edit' },
        { principalType: 'team', principalId: teamId, role: 'read' },
      ]),
    );
    expect((await h.call<{ spaceId: string }, Space>(c().getSpace, { spaceId: s.id }, editor.id)).permissions).toMatchObject({ edit: true, admin: false });
    await grantSpace(s.id, { role: Role.ROLE_GUEST, teamIds: [teamId] });
    expect(await grants('SpaceGrant', s.id)).toEqual([{ principalType: 'user', principalId: editor.id, role: 'edit' }]);
  });

  it("reads the spaces of calls sent together in one batch, each with its caller's own grants", async () => {
    const s = await createSpace();
    await h.call(c().updateSpace, { spaceId: s.id, defaultLevel: Role.ROLE_GUEST }, owner.id);
    await grantSpace(s.id, { role: Role.ROLE_READ, teamIds: [teamId] });
    const gateway = testIdentity('gateway');
    const content = promiseClient(h.client, ContentServiceService, { identity: gateway, audience: 'content' });
    // Assertions signed beforehand: a first signature finishes in a later turn of the event loop.
    await Promise.all([owner, reader, editor, outsider].map((u) => gateway.sign('content', { userId: u.id })));
    const read = (as: TestUser) => content.getSpace({ spaceId: s.id }, { userId: as.id });
    const batches = vi.spyOn(h.client, 'makeServerStreamRequest');
    const [asOwner, asReader] = await Promise.all([read(owner), read(reader), rejects(read(editor), status.NOT_FOUND), rejects(read(outsider), status.NOT_FOUND)]);
    expect(batches).toHaveBeenCalledTimes(1);
    batches.mockRestore();
    expect(asOwner.permissions).toMatchObject({ view: true, admin: true });
    expect(asReader.permissions).toMatchObject({ view: true, edit: false, admin: false });
    expect(asReader).toEqual(await h.call(c().getSpace, { spaceId: s.id }, reader.id));
  });

  it('refuses bad roles, empty grants, strangers and foreign teams, changing nothing', async () => {
    const s = await createSpace();
    await grantSpace(s.id, { userIds: [reader.id] });
    const before = await grants('SpaceGrant', s.id);
    await rejects(grantSpace(s.id, { role: Role.ROLE_UNSPECIFIED, userIds: [editor.id] }), status.INVALID_ARGUMENT, /^role: must be one of/);
    await rejects(grantSpace(s.id, {}), status.INVALID_ARGUMENT, /^users, teams: at least one/);
    await rejects(
      grantSpace(s.id, { userIds: [editor.id, outsider.id] }),
      status.INVALID_ARGUMENT,
      new RegExp(`^users\\[1\\]: "${outsider.id}" is not a member of the organization$`),
    );
    await rejects(grantSpace(s.id, { userIds: ['nobody'] }), status.INVALID_ARGUMENT, /^users\[0\]: "nobody" is not a member/);
    await rejects(grantSpace(s.id, { teamIds: [teamId, otherTeamId] }), status.INVALID_ARGUMENT, new RegExp(`^teams\\[1\\]: "${otherTeamId}" is not a team of the organization$`));
    expect(await grants('SpaceGrant', s.id)).toEqual(before);
  });

  it('lets only admins manage grants: NOT_FOUND to those who cannot see the space, PERMISSION_DENIED to the others', async () => {
    const s = await createSpace();
    await rejects(grantSpace(s.id, { userIds: [editor.id] }, creator), status.PERMISSION_DENIED, /^Only admins of space/);
    await rejects(grantSpace(s.id, { userIds: [editor.id] }, reader), status.PERMISSION_DENIED);
    await rejects(grantSpace(s.id, { userIds: [editor.id] }, outsider), status.NOT_FOUND, /^Space ".+" not found$/);
    await rejects(grantSpace(s.id, { userIds: [editor.id] }, null), status.UNAUTHENTICATED);
    await rejects(grantSpace('missing', { userIds: [editor.id] }), status.NOT_FOUND);
    await rejects(update(s.id, editor.id, Role.ROLE_READ, creator), status.PERMISSION_DENIED);
    await rejects(remove(s.id, editor.id, creator), status.PERMISSION_DENIED);
    await rejects(remove(s.id, editor.id, outsider), status.NOT_FOUND);
    await rejects(list(s.id, {}, outsider), status.NOT_FOUND);
    expect(await grants('SpaceGrant', s.id)).toEqual([]);
    // An admin by grant manages them too.
    await grantSpace(s.id, { role: Role.ROLE_ADMIN, userIds: [creator.id] });
    await grantSpace(s.id, { role: Role.ROLE_READ, userIds: [editor.id] }, creator);
    expect(await grants('SpaceGrant', s.id)).toHaveLength(2);
  });

  it('lists the users granted a role, by page, to the space viewers', async () => {
    const s = await createSpace();
    await grantSpace(s.id, { role: Role.ROLE_COMMENT, userIds: [creator.id, editor.id, reader.id], teamIds: [teamId] });
    const first = await list(s.id, { page: { page: '', limit: 2 } }, reader);
    expect(first.items).toHaveLength(2);
    expect(first.page?.next).toBeTruthy();
    const second = await list(s.id, { page: { page: first.page!.next!, limit: 2 } }, reader);
    expect(second.page?.next).toBeFalsy();
    const all = [...first.items, ...second.items];
    expect(all.map((p) => p.userId).sort()).toEqual([creator.id, editor.id, reader.id].sort());
    expect(all.every((p) => p.role === Role.ROLE_COMMENT)).toBe(true);
    await rejects(list(s.id, { page: { page: '', limit: 1001 } }), status.INVALID_ARGUMENT, /^limit: /);
  });

  it('changes and removes one user grant', async () => {
    const s = await createSpace();
    await grantSpace(s.id, { role: Role.ROLE_READ, userIds: [reader.id] });
    await update(s.id, reader.id, Role.ROLE_REVIEW);
    expect(await grants('SpaceGrant', s.id)).toEqual([{ principalType: 'user', principalId: reader.id, role: 'review' }]);
    await rejects(update(s.id, editor.id, Role.ROLE_READ), status.NOT_FOUND, new RegExp(`^user: "${editor.id}" has no permission on space`));
    await rejects(update(s.id, reader.id, Role.ROLE_UNSPECIFIED), status.INVALID_ARGUMENT, /^role: /);
    expect(await remove(s.id, reader.id)).toEqual({ removed: true });
    expect(await remove(s.id, reader.id)).toEqual({ removed: false });
    expect(await grants('SpaceGrant', s.id)).toEqual([]);
  });
});

describe('collection permissions', () => {
  it('grants on a collection, reaching its spaces; only its admins may', async () => {
    const col = await createCollection();
    await h.call(c().updateCollection, { collectionId: col.id, defaultLevel: Role.ROLE_GUEST }, owner.id);
    const s = await createSpace({ parentId: col.id });
    await rejects(h.call(c().getSpace, { spaceId: s.id }, reader.id), status.NOT_FOUND);
    await rejects(grantCollection(col.id, { userIds: [reader.id] }, creator), status.NOT_FOUND);
    await rejects(grantCollection(col.id, { userIds: [reader.id] }, editor), status.NOT_FOUND);
    await rejects(grantCollection(col.id, { userIds: [outsider.id] }), status.INVALID_ARGUMENT, /^users\[0\]: .* is not a member of the organization$/);
    await grantCollection(col.id, { role: Role.ROLE_CREATE, userIds: [editor.id] });
    await rejects(grantCollection(col.id, { userIds: [reader.id] }, editor), status.PERMISSION_DENIED, /^Only admins of collection/);
    expect(await grants('CollectionGrant', col.id)).toEqual([{ principalType: 'user', principalId: editor.id, role: 'create' }]);
    await grantCollection(col.id, { role: Role.ROLE_EDIT, teamIds: [teamId] });
    expect((await h.call<{ spaceId: string }, Space>(c().getSpace, { spaceId: s.id }, reader.id)).permissions).toMatchObject({ view: true, edit: true });
  });
});
