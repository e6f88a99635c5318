import { status } from '@grpc/grpc-js';
import pg from 'pg';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Collection,
  CreateCollectionRequest,
  CreateSpaceRequest,
  ListCollectionsRequest,
  ListSpacesResponse,
  MoveSpaceRequest,
  Space,
  UpdateSpaceRequest,
} from '@quire/proto/content';
import { Role } from '@quire/policy';
import { connectDb, stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { READER_SPACE_PERMISSIONS } from './fixtures.ts';
import { startContent, type ContentHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: ContentHarness;
let db: pg.Client;
let owner: TestUser, creator: TestUser, editor: TestUser, reader: TestUser, guest: TestUser, outsider: TestUser;
let orgId: string, targetOrgId: string, otherOrgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startContent(orgs.address);
  db = await connectDb(h.databaseUrl);
  const roles = { creator: Role.ROLE_CREATE, editor: Role.ROLE_EDIT, reader: Role.ROLE_READ, guest: Role.ROLE_GUEST };
  ({ owner, creator, editor, reader, guest, outsider, orgId, otherOrgId } = await team(orgs, roles));
  targetOrgId = (await orgs.organization(owner, [[editor, Role.ROLE_ADMIN]], 'Target Org')).id;
});
afterAll(() => stopAll(db, h, orgs));

const c = () => h.client;
const createCollection = (req: Partial<CreateCollectionRequest> = {}, as: TestUser = owner) =>
  h.call<CreateCollectionRequest, Collection>(c().createCollection, { organizationId: orgId, title: 'Guides', ...req }, as.id);
const createSpace = (req: Partial<CreateSpaceRequest> = {}, as: TestUser = owner) =>
  h.call<CreateSpaceRequest, Space>(c().createSpace, { organizationId: orgId, title: 'Handbook', emoji: '', editMode: '', visibility: '', ...req }, as.id);
const getSpace = (spaceId: string, as?: TestUser) => h.call(c().getSpace, { spaceId }, as?.id);
const getCollection = (collectionId: string, as?: TestUser) => h.call(c().getCollection, { collectionId }, as?.id);
const updateSpace = (spaceId: string, req: Partial<UpdateSpaceRequest>, as: TestUser = owner) => h.call<UpdateSpaceRequest, Space>(c().updateSpace, { spaceId, ...req }, as.id);
const moveSpace = (req: Partial<MoveSpaceRequest> & { spaceId: string }, as: TestUser = owner) =>
  h.call<MoveSpaceRequest, Space>(c().moveSpace, { setParent: false, ...req }, as.id);
const inCollection = async (collectionId: string, as: TestUser = owner) =>
  ((await h.call(c().listSpacesInCollection, { collectionId }, as.id)) as ListSpacesResponse).items.map((s) => s.id);
const listCollections = (req: Partial<ListCollectionsRequest> = {}, as: TestUser = owner) =>
  h.call<ListCollectionsRequest, { items: Collection[]; page?: { next?: string } }>(c().listCollections, { organizationId: orgId, ...req }, as.id);
const grant = (kind: 'space' | 'collection', id: string, principalType: 'user' | 'team', principalId: string, role: string) =>
  db.query(`INSERT INTO "${kind === 'space' ? 'SpaceGrant' : 'CollectionGrant'}" ("${kind}Id", "principalType", "principalId", role) VALUES ($1, $2, $3, $4)`, [
    id,
    principalType,
    principalId,
    role,
  ]);
const spaceCount = async () => Number((await db.query('SELECT count(*) FROM "Space"')).rows[0].count);

describe('spaces', () => {
  it('creates a private, live space on a fresh empty revision, with the defaults', async () => {
    const s = await createSpace({ title: 'Handbook', emoji: '🎉' });
    expect(s).toMatchObject({
      organizationId: orgId,
      title: 'Handbook',
      emoji: '🎉',
      visibility: 'private',
      editMode: 'live',
      defaultLevel: Role.ROLE_UNSPECIFIED,
      permissions: { view: true, admin: true, edit: true },
    });
    expect(s.parentId).toBeUndefined();
    const revision = (await db.query('SELECT * FROM "Revision" WHERE id = $1', [s.revisionId])).rows[0];
    expect(revision).toMatchObject({ spaceId: s.id, parents: [], type: 'edits' });
    expect((await createSpace({ title: '' })).title).toBe('Untitled');
  });

  it('refuses bad fields naming them, creating nothing', async () => {
    const before = await spaceCount();
    await rejects(createSpace({ title: 'x'.repeat(51) }), status.INVALID_ARGUMENT, /^title: must be between 1 and 50 characters \(got 51\)/);
    await rejects(createSpace({ emoji: 'not an emoji' }), status.INVALID_ARGUMENT, /^emoji: /);
    await rejects(createSpace({ emoji: '🎉'.repeat(51) }), status.INVALID_ARGUMENT, /^emoji: must be at most 50/);
    await rejects(createSpace({ editMode: 'frozen' }), status.INVALID_ARGUMENT, /^editMode: must be one of live, locked/);
    await rejects(createSpace({ visibility: 'secret' }), status.INVALID_ARGUMENT, /^visibility: must be one of/);
    await rejects(createSpace({ visibility: 'in-collection' }), status.INVALID_ARGUMENT, /^visibility: in-collection is only for spaces in a collection/);
    await rejects(createSpace({ parentId: 'nope' }), status.NOT_FOUND, /^parent: collection "nope" not found/);
    expect(await spaceCount()).toBe(before);
  });

  it('lets org members at create and above create at the root; 403 to editors, 404 to outsiders, 401 anonymous', async () => {
    expect((await createSpace({}, creator)).permissions).toMatchObject({ admin: false, edit: true });
    const before = await spaceCount();
    await rejects(createSpace({}, editor), status.PERMISSION_DENIED, /^organization: creating at the root/);
    await rejects(createSpace({}, outsider), status.NOT_FOUND, new RegExp(`organization: "${orgId}" not found`));
    await rejects(h.call(c().createSpace, { organizationId: orgId, title: 'x', emoji: '', editMode: '', visibility: '' }), status.UNAUTHENTICATED);
    expect(await spaceCount()).toBe(before);
  });

  it('gets a space as each caller sees it, and hides it from outsiders and other organizations', async () => {
    const s = await createSpace();
    expect((await getSpace(s.id, reader)).permissions).toEqual(READER_SPACE_PERMISSIONS);
    expect((await getSpace(s.id, editor)).permissions).toMatchObject({ edit: true, comment: true, review: false, admin: false });
    await rejects(getSpace(s.id, outsider), status.NOT_FOUND, new RegExp(`Space "${s.id}" not found`));
    await rejects(getSpace(s.id, guest), status.NOT_FOUND);
    await rejects(getSpace('missing', owner), status.NOT_FOUND);
    const foreign = await h.call<CreateSpaceRequest, Space>(c().createSpace, { organizationId: otherOrgId, title: 'Theirs', emoji: '', editMode: '', visibility: '' }, outsider.id);
    await rejects(getSpace(foreign.id, owner), status.NOT_FOUND);
  });

  it('shows public and unlisted spaces to anyone, read-only', async () => {
    const s = await createSpace({ visibility: 'public' });
    expect((await getSpace(s.id, outsider)).permissions).toMatchObject({ view: true, edit: false, admin: false });
    await rejects(updateSpace(s.id, { title: 'Mine' }, outsider), status.PERMISSION_DENIED);
  });

  it('computes roles from default levels and grants to users and teams', async () => {
    const col = await createCollection({ title: 'Restricted' });
    await h.call(c().updateCollection, { collectionId: col.id, defaultLevel: Role.ROLE_GUEST }, owner.id);
    const s = await createSpace({ parentId: col.id });
    await rejects(getSpace(s.id, editor), status.NOT_FOUND);
    await grant('collection', col.id, 'user', editor.id, 'comment');
    expect((await getSpace(s.id, editor)).permissions).toMatchObject({ view: true, comment: true, edit: false });
    const team = await orgs.call<{ organizationId: string; title: string; members: string[] }, { id: string }>(
      orgs.client.createTeam,
      { organizationId: orgId, title: 'Writers', members: [editor.id] },
      owner.id,
    );
    await grant('space', s.id, 'team', team.id, 'admin');
    expect((await getSpace(s.id, editor)).permissions).toMatchObject({ admin: true, edit: true });
    await grant('space', s.id, 'user', guest.id, 'read');
    expect((await getSpace(s.id, guest)).permissions).toMatchObject({ view: true, edit: false });
    const lowered = await updateSpace(s.id, { defaultLevel: Role.ROLE_READ });
    expect(lowered.defaultLevel).toBe(Role.ROLE_READ);
    expect((await getSpace(s.id, reader)).permissions).toMatchObject({ view: true, edit: false });
  });

  it('updates title and emoji for editors, settings for admins only; locked spaces refuse non-admins', async () => {
    const s = await createSpace();
    expect(await updateSpace(s.id, { title: 'Renamed', emoji: '📘' }, editor)).toMatchObject({ title: 'Renamed', emoji: '📘' });
    expect((await updateSpace(s.id, { emoji: '' }, editor)).emoji).toBe('');
    await rejects(updateSpace(s.id, { title: 'By reader' }, reader), status.PERMISSION_DENIED);
    await rejects(updateSpace(s.id, { visibility: 'public' }, editor), status.PERMISSION_DENIED, /editMode, defaultLevel or visibility/);
    await rejects(updateSpace(s.id, { title: '' }), status.INVALID_ARGUMENT, /^title: /);
    await rejects(updateSpace(s.id, { editMode: 'frozen' }), status.INVALID_ARGUMENT, /^editMode: /);
    await rejects(updateSpace(s.id, { visibility: 'in-collection' }), status.INVALID_ARGUMENT, /^visibility: in-collection/);
    const locked = await updateSpace(s.id, { editMode: 'locked', visibility: 'unlisted' });
    expect(locked).toMatchObject({ editMode: 'locked', visibility: 'unlisted', permissions: { admin: true, edit: false } });
    await rejects(updateSpace(s.id, { title: 'While locked' }, editor), status.ABORTED, /^editMode: space .* is locked/);
    expect((await getSpace(s.id, editor)).title).toBe('Renamed');
    expect((await updateSpace(s.id, { editMode: 'live' })).editMode).toBe('live');
  });

  it('deletes (hidden everywhere), restores within 7 days, then answers 404 and purges', async () => {
    const col = await createCollection();
    const s = await createSpace({ parentId: col.id });
    await rejects(h.call(c().deleteSpace, { spaceId: s.id }, editor.id), status.PERMISSION_DENIED);
    await h.call(c().deleteSpace, { spaceId: s.id }, owner.id);
    await rejects(getSpace(s.id, owner), status.NOT_FOUND);
    await rejects(h.call(c().deleteSpace, { spaceId: s.id }, owner.id), status.NOT_FOUND);
    expect(await inCollection(col.id)).toEqual([]);
    const all = (await h.call(c().listSpacesInOrganization, { organizationId: orgId, page: { page: '', limit: 1000 } }, owner.id)) as ListSpacesResponse;
    expect(all.items.map((i) => i.id)).not.toContain(s.id);
    await rejects(h.call(c().restoreSpace, { spaceId: s.id }, reader.id), status.PERMISSION_DENIED);
    const restored = (await h.call(c().restoreSpace, { spaceId: s.id }, owner.id)) as Space;
    expect(restored.deletedAt).toBeUndefined();
    expect((await h.call(c().restoreSpace, { spaceId: s.id }, owner.id)) as Space).toMatchObject({ id: s.id });

    await h.call(c().deleteSpace, { spaceId: s.id }, owner.id);
    const deletedAt = (await db.query('SELECT "deletedAt" FROM "Space" WHERE id = $1', [s.id])).rows[0].deletedAt as Date;
    const later = new Date(deletedAt.getTime() + 7 * 24 * 3600 * 1000 + 1000);
    h.clock.now = () => later;
    try {
      await rejects(h.call(c().restoreSpace, { spaceId: s.id }, owner.id), status.NOT_FOUND);
    } finally {
      h.clock.now = () => new Date();
    }
    const early = (await h.call(c().purgeDeletedSpaces, { now: new Date(deletedAt.getTime() + 1000) })) as { purged: number };
    expect(early.purged).toBe(0);
    // A page of the space in the search index goes with it.
    await db.query(`INSERT INTO "SpacePage" ("spaceId", "pageId", "documentId", title, path) VALUES ($1, 'p1', 'd1', 'Page', 'page')`, [s.id]);
    expect((await h.call(c().purgeDeletedSpaces, { now: later })) as { purged: number }).toEqual({ purged: 1 });
    expect((await db.query('SELECT id FROM "Space" WHERE id = $1', [s.id])).rows).toEqual([]);
    expect((await db.query('SELECT "pageId" FROM "SpacePage" WHERE "spaceId" = $1', [s.id])).rows).toEqual([]);
  });

  it('duplicates beside the original on the same revision, for those who may create there', async () => {
    const s = await createSpace({ title: 'x'.repeat(50), emoji: '📘', visibility: 'unlisted' });
    const copy = (await h.call(c().duplicateSpace, { spaceId: s.id }, owner.id)) as Space;
    expect(copy).toMatchObject({ title: 'x'.repeat(43) + ' (copy)', emoji: '📘', visibility: 'unlisted', revisionId: s.revisionId });
    expect(copy.id).not.toBe(s.id);
    await rejects(h.call(c().duplicateSpace, { spaceId: s.id }, editor.id), status.PERMISSION_DENIED);
    await rejects(h.call(c().duplicateSpace, { spaceId: s.id }, outsider.id), status.PERMISSION_DENIED);
  });

  it('moves between collections and the root, before or after siblings', async () => {
    const col = await createCollection({ title: 'Moves' });
    const [a, b, x] = [await createSpace({ parentId: col.id }), await createSpace({ parentId: col.id }), await createSpace({ visibility: 'private' })];
    expect(await inCollection(col.id)).toEqual([a.id, b.id]);
    await moveSpace({ spaceId: x.id, setParent: true, parentId: col.id, position: { before: { type: 'space', id: a.id } } });
    expect(await inCollection(col.id)).toEqual([x.id, a.id, b.id]);
    await moveSpace({ spaceId: x.id, position: { after: { type: 'space', id: b.id } } });
    expect(await inCollection(col.id)).toEqual([a.id, b.id, x.id]);
    await updateSpace(x.id, { visibility: 'in-collection' });
    const out = await moveSpace({ spaceId: x.id, setParent: true });
    expect(out.parentId).toBeUndefined();
    expect(out.visibility).toBe('private');
    await rejects(moveSpace({ spaceId: a.id, position: { before: { type: 'space', id: x.id } } }), status.INVALID_ARGUMENT, /^position.before: space/);
    await rejects(moveSpace({ spaceId: a.id, position: { before: { type: 'page', id: x.id } } }), status.INVALID_ARGUMENT, /^position.before.type/);
    await rejects(moveSpace({ spaceId: a.id, setParent: true, parentId: 'nope' }), status.NOT_FOUND, /^parent: /);
    await rejects(moveSpace({ spaceId: a.id, setParent: true }, editor), status.PERMISSION_DENIED);
    expect(await inCollection(col.id)).toEqual([a.id, b.id]);
  });

  it('transfers to another organization the caller administers, out of its collection', async () => {
    const col = await createCollection();
    const s = await createSpace({ parentId: col.id, visibility: 'in-collection' });
    await rejects(h.call(c().transferSpace, { spaceId: s.id, organizationId: otherOrgId }, owner.id), status.NOT_FOUND, /^organization: /);
    await rejects(h.call(c().transferSpace, { spaceId: s.id, organizationId: targetOrgId }, editor.id), status.PERMISSION_DENIED);
    const moved = (await h.call(c().transferSpace, { spaceId: s.id, organizationId: targetOrgId }, owner.id)) as Space;
    expect(moved).toMatchObject({ organizationId: targetOrgId, visibility: 'private' });
    expect(moved.parentId).toBeUndefined();
    expect((await getSpace(s.id, editor)).permissions?.admin).toBe(true);
    await rejects(getSpace(s.id, reader), status.NOT_FOUND);
  });

  it("lists the organization's spaces the caller sees, in pages", async () => {
    const fresh = (await orgs.organization(owner, [[guest, Role.ROLE_GUEST]], 'Paged')).id;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createSpace({ organizationId: fresh, title: `S${i}` })).id);
    await grant('space', ids[2]!, 'user', guest.id, 'read');
    const list = (page: string, as: TestUser) => h.call(c().listSpacesInOrganization, { organizationId: fresh, page: { page, limit: 2 } }, as.id) as Promise<ListSpacesResponse>;
    const first = await list('', owner);
    expect(first.items.map((s) => s.id)).toEqual(ids.slice(0, 2));
    const second = await list(first.page!.next!, owner);
    expect(second.items.map((s) => s.id)).toEqual(ids.slice(2));
    expect(second.page?.next).toBeUndefined();
    expect((await list('', guest)).items.map((s) => s.id)).toEqual([ids[2]]);
    await rejects(list('', outsider), status.NOT_FOUND);
    await rejects(h.call(c().listSpacesInOrganization, { organizationId: fresh, page: { page: '', limit: 1001 } }, owner.id), status.INVALID_ARGUMENT, /limit/);
  });

  it('batch-gets the spaces the caller sees, in the asked order, in one call', async () => {
    const [a, b] = [await createSpace(), await createSpace()];
    const foreign = await h.call<CreateSpaceRequest, Space>(c().createSpace, { organizationId: otherOrgId, title: 'T', emoji: '', editMode: '', visibility: '' }, outsider.id);
    const res = (await h.call(c().batchGetSpaces, { spaceIds: [b.id, 'missing', foreign.id, a.id] }, reader.id)) as { spaces: Space[] };
    expect(res.spaces.map((s) => s.id)).toEqual([b.id, a.id]);
    await rejects(h.call(c().batchGetSpaces, { spaceIds: Array.from({ length: 1001 }, (_, i) => `s${i}`) }, reader.id), status.INVALID_ARGUMENT, /^spaceIds: /);
  });
});

describe('collections', () => {
  it('creates nested collections for those who may create, refusing bad fields', async () => {
    const top = await createCollection({ title: 'Top' }, creator);
    expect(top).toMatchObject({ title: 'Top', organizationId: orgId, defaultLevel: Role.ROLE_UNSPECIFIED, permissions: { view: true, create: true, admin: false } });
    const sub = await createCollection({ title: 'Sub', parentId: top.id });
    expect(sub.parentId).toBe(top.id);
    expect((await createCollection({ title: '' })).title).toBe('Untitled');
    await rejects(createCollection({ title: 'x'.repeat(51) }), status.INVALID_ARGUMENT, /^title: must be between 1 and 50 characters \(got 51\)/);
    await rejects(createCollection({}, editor), status.PERMISSION_DENIED);
    await rejects(createCollection({ parentId: top.id }, editor), status.PERMISSION_DENIED, /^parent: /);
    await rejects(createCollection({}, outsider), status.NOT_FOUND, /^organization: /);
    await rejects(createCollection({ organizationId: otherOrgId }), status.NOT_FOUND);
  });

  it('gets and updates, admins only; description and defaultLevel bounds', async () => {
    const col = await createCollection();
    expect((await getCollection(col.id, reader)).permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    await rejects(getCollection(col.id, outsider), status.NOT_FOUND, new RegExp(`Collection "${col.id}" not found`));
    const updated = (await h.call(c().updateCollection, { collectionId: col.id, title: 'New', description: 'About', defaultLevel: Role.ROLE_EDIT }, owner.id)) as Collection;
    expect(updated).toMatchObject({ title: 'New', description: 'About', defaultLevel: Role.ROLE_EDIT });
    expect(((await h.call(c().updateCollection, { collectionId: col.id, description: '' }, owner.id)) as Collection).description).toBeUndefined();
    await rejects(h.call(c().updateCollection, { collectionId: col.id, description: 'd'.repeat(101) }, owner.id), status.INVALID_ARGUMENT, /^description: must be at most 100/);
    await rejects(h.call(c().updateCollection, { collectionId: col.id, title: 'By reader' }, reader.id), status.PERMISSION_DENIED);
    await rejects(h.call(c().updateCollection, { collectionId: col.id, title: 'x' }, outsider.id), status.NOT_FOUND);
    expect((await getCollection(col.id, reader)).title).toBe('New');
  });

  it('lists nested collections by default, only the root ones with nested false', async () => {
    const fresh = (await orgs.organization(owner, [], 'Lists')).id;
    const top = await createCollection({ organizationId: fresh, title: 'Top' });
    const sub = await createCollection({ organizationId: fresh, title: 'Sub', parentId: top.id });
    expect((await listCollections({ organizationId: fresh })).items.map((i) => i.id)).toEqual([top.id, sub.id]);
    expect((await listCollections({ organizationId: fresh, nested: false })).items.map((i) => i.id)).toEqual([top.id]);
    const paged = await listCollections({ organizationId: fresh, page: { page: '', limit: 1 } });
    expect(paged.items).toHaveLength(1);
    expect(paged.page?.next).toBeDefined();
    await rejects(listCollections({ organizationId: fresh }, outsider), status.NOT_FOUND);
  });

  it('moves into another collection or the root, never into itself', async () => {
    const a = await createCollection({ title: 'A' });
    const b = await createCollection({ title: 'B', parentId: a.id });
    const s = await createSpace({ parentId: a.id });
    await rejects(
      h.call(c().moveCollection, { collectionId: a.id, setParent: true, parentId: b.id }, owner.id),
      status.INVALID_ARGUMENT,
      /^parent: a collection cannot move into itself/,
    );
    await rejects(h.call(c().moveCollection, { collectionId: a.id, setParent: true, parentId: a.id }, owner.id), status.INVALID_ARGUMENT);
    const moved = (await h.call(c().moveCollection, { collectionId: b.id, setParent: false, position: { before: { type: 'space', id: s.id } } }, owner.id)) as Collection;
    expect(moved.parentId).toBe(a.id);
    const root = (await h.call(c().moveCollection, { collectionId: b.id, setParent: true }, owner.id)) as Collection;
    expect(root.parentId).toBeUndefined();
    await rejects(h.call(c().moveCollection, { collectionId: b.id, setParent: true, parentId: a.id }, reader.id), status.PERMISSION_DENIED);
  });

  it('lists the spaces of a collection', async () => {
    const col = await createCollection();
    const s = await createSpace({ parentId: col.id });
    expect(await inCollection(col.id, reader)).toEqual([s.id]);
    await rejects(h.call(c().listSpacesInCollection, { collectionId: col.id }, outsider.id), status.NOT_FOUND);
  });

  it('deletes, moving its spaces and sub-collections up to its parent', async () => {
    const top = await createCollection({ title: 'Top' });
    const mid = await createCollection({ title: 'Mid', parentId: top.id });
    const sub = await createCollection({ title: 'Sub', parentId: mid.id });
    const s = await createSpace({ parentId: mid.id, visibility: 'in-collection' });
    await rejects(h.call(c().deleteCollection, { collectionId: mid.id }, editor.id), status.PERMISSION_DENIED);
    await h.call(c().deleteCollection, { collectionId: mid.id }, owner.id);
    await rejects(getCollection(mid.id, owner), status.NOT_FOUND);
    expect((await getCollection(sub.id, owner)).parentId).toBe(top.id);
    expect(await getSpace(s.id, owner)).toMatchObject({ parentId: top.id, visibility: 'in-collection' });
    await h.call(c().deleteCollection, { collectionId: top.id }, owner.id);
    expect((await getCollection(sub.id, owner)).parentId).toBeUndefined();
    const atRoot = await getSpace(s.id, owner);
    expect(atRoot.parentId).toBeUndefined();
    expect(atRoot.visibility).toBe('private');
  });

  it('transfers with its sub-collections and spaces, admins of both only', async () => {
    const top = await createCollection({ title: 'Moving' });
    const sub = await createCollection({ title: 'Along', parentId: top.id });
    const s = await createSpace({ parentId: sub.id });
    await rejects(h.call(c().transferCollection, { collectionId: top.id, organizationId: otherOrgId }, owner.id), status.NOT_FOUND);
    await rejects(h.call(c().transferCollection, { collectionId: top.id, organizationId: targetOrgId }, creator.id), status.PERMISSION_DENIED);
    const moved = (await h.call(c().transferCollection, { collectionId: top.id, organizationId: targetOrgId }, owner.id)) as Collection;
    expect(moved.organizationId).toBe(targetOrgId);
    expect((await getCollection(sub.id, owner)).organizationId).toBe(targetOrgId);
    expect((await getSpace(s.id, owner)).organizationId).toBe(targetOrgId);
    await rejects(getSpace(s.id, reader), status.NOT_FOUND);
  });
});
