import { GitBookAPI } from '@gitbook/api';
import { describe, expect } from 'vitest';
import { bearer, expectError, ok } from './harness.ts';
import { test as base } from './fixtures.ts';

// Each test in an organization of its own (fixtures.ts): its spaces and collections alone.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

const it = base.extend<{
  /** A second organization of the team's owner, to transfer into. */
  targetOrgId: string;
  /** As the team's owner: a new space or collection of the organization, and a GET's JSON. */
  createSpace: (body?: Record<string, unknown>) => Promise<Json>;
  createCollection: (body?: Record<string, unknown>) => Promise<Json>;
  snapshot: (url: string) => Promise<Json>;
}>({
  targetOrgId: async ({ g, team }, use) => use((await g.orgs.organization(team.owner, [], 'Target Org')).id),
  createSpace: async ({ g, team }, use) => use((body = {}) => ok(g.call(team.owner, 'POST', `/v1/orgs/${team.orgId}/spaces`, { title: 'Handbook', ...body }), 201)),
  createCollection: async ({ g, team }, use) => use((body = {}) => ok(g.call(team.owner, 'POST', `/v1/orgs/${team.orgId}/collections`, { title: 'Guides', ...body }), 201)),
  snapshot: async ({ g, team }, use) => use(async (url) => (await g.call(team.owner, 'GET', url)).json()),
});

describe('spaces over HTTP', () => {
  it('creates, reads, updates and lists a space in the reference shape', async ({ g, team: { owner, reader, orgId }, createSpace }) => {
    const space = await createSpace({ emoji: '📘' });
    expect(space).toEqual({
      object: 'space',
      id: expect.any(String),
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editMode: 'live',
      organization: orgId,
      revision: expect.any(String),
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      urls: { location: `http://127.0.0.1:8080/v1/spaces/${space.id}`, app: `http://127.0.0.1:8080/o/${orgId}/s/${space.id}` },
      permissions: { view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true },
    });
    expect(await ok(g.call(reader, 'GET', `/v1/spaces/${space.id}`))).toMatchObject({ id: space.id, permissions: { view: true, edit: false } });
    const updated = await ok(g.call(owner, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Renamed', emoji: null, editMode: 'locked', defaultLevel: null, visibility: 'unlisted' }));
    expect(updated).toMatchObject({ title: 'Renamed', emoji: '', editMode: 'locked', defaultLevel: null, visibility: 'unlisted', permissions: { edit: false } });
    expect((await ok(g.call(owner, 'PATCH', `/v1/spaces/${space.id}`, { defaultLevel: 'read', editMode: 'live' }))).defaultLevel).toBe('read');
    const listed = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/spaces?limit=1000`));
    expect(listed.items.map((s: { id: string }) => s.id)).toContain(space.id);
    expect(listed.count).toBe(listed.items.length);
  });

  it('deletes with 205, restores and duplicates without a body or Content-Type', async ({ g, team: { owner }, createSpace }) => {
    const space = await createSpace();
    const del = await g.call(owner, 'DELETE', `/v1/spaces/${space.id}`);
    expect(del.statusCode).toBe(205);
    expect(del.body).toBe('');
    expectError(await g.call(owner, 'GET', `/v1/spaces/${space.id}`), 404, new RegExp(`Space "${space.id}" not found`));
    const restored = await g.app.inject({ method: 'POST', url: `/v1/spaces/${space.id}/restore`, headers: bearer(owner.token) });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ id: space.id });
    expect(restored.json()).not.toHaveProperty('deletedAt');
    const copy = await g.app.inject({ method: 'POST', url: `/v1/spaces/${space.id}/duplicate`, headers: bearer(owner.token) });
    expect(copy.statusCode, copy.body).toBe(201);
    expect(copy.json()).toMatchObject({ title: 'Handbook (copy)', revision: space.revision });
  });

  it('moves into a collection before a sibling and back to the root, and transfers', async ({ g, team: { owner }, targetOrgId, createSpace, createCollection }) => {
    const col = await createCollection();
    const first = await createSpace({ parent: col.id });
    const space = await createSpace();
    const moved = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/move`, { parent: col.id, position: { before: { type: 'space', space: first.id } } }));
    expect(moved.parent).toBe(col.id);
    const inside = await ok(g.call(owner, 'GET', `/v1/collections/${col.id}/spaces`));
    expect(inside.items.map((s: { id: string }) => s.id)).toEqual([space.id, first.id]);
    const root = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/move`, { parent: null }));
    expect(root).not.toHaveProperty('parent');
    const transferred = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: targetOrgId }));
    expect(transferred.organization).toBe(targetOrgId);
  });

  it('refuses every bound, enum and wrong type with 400 naming the field, changing nothing', async ({ g, team: { owner, orgId }, createSpace, snapshot }) => {
    const space = await createSpace();
    const before = await snapshot(`/v1/spaces/${space.id}`);
    const patches: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x'.repeat(51) }, /title/],
      [{ title: '' }, /^title: must be between 1 and 50/],
      [{ title: 12 }, /title/],
      [{ emoji: 'e'.repeat(51) }, /emoji/],
      [{ emoji: 'not an emoji' }, /^emoji: /],
      [{ editMode: 'frozen' }, /editMode/],
      [{ defaultLevel: 'owner' }, /defaultLevel/],
      [{ visibility: 'secret' }, /visibility/],
      [{ visibility: 'in-collection' }, /^visibility: in-collection/],
    ];
    for (const [body, message] of patches) expectError(await g.call(owner, 'PATCH', `/v1/spaces/${space.id}`, body), 400, message);
    expect(await snapshot(`/v1/spaces/${space.id}`)).toEqual(before);

    const count = (await snapshot(`/v1/orgs/${orgId}/spaces?limit=1000`)).count;
    const creates: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x'.repeat(51) }, /title/],
      [{ emoji: 'e'.repeat(51) }, /emoji/],
      [{ editMode: 'frozen' }, /editMode/],
      [{ visibility: 'secret' }, /visibility/],
      [{ visibility: 'in-collection' }, /^visibility: in-collection/],
      [{ parent: 'bad id!' }, /parent/],
      [{ parent: 'missing' }, /^parent: collection "missing" not found/],
    ];
    for (const [body, message] of creates)
      expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'T', ...body }), body.parent === 'missing' ? 404 : 400, message);
    const moves: [Record<string, unknown>, RegExp][] = [
      [{}, /body/],
      [{ parent: 12 }, /parent/],
      [{ position: { before: { type: 'page', page: 'x' } } }, /position/],
      [{ position: { after: { type: 'space', space: 'missing' } } }, /^position.after: space "missing"/],
    ];
    for (const [body, message] of moves) expectError(await g.call(owner, 'POST', `/v1/spaces/${space.id}/move`, body), 400, message);
    expectError(await g.call(owner, 'POST', `/v1/spaces/${space.id}/transfer`, {}), 400, /organization/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/spaces?limit=1001`), 400, /limit/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/spaces?limit=abc`), 400, /limit/);
    expect((await snapshot(`/v1/orgs/${orgId}/spaces?limit=1000`)).count).toBe(count);
    expect(await snapshot(`/v1/spaces/${space.id}`)).toEqual(before);
  });

  it('answers 401 without a token, 404 for unknown ids and other organizations, 403 to readers, changing nothing', async ({
    g,
    team: { owner, editor, reader, outsider, orgId, otherOrgId },
    targetOrgId,
    createSpace,
    snapshot,
  }) => {
    const space = await createSpace();
    const before = await snapshot(`/v1/spaces/${space.id}`);
    expectError(await g.call(null, 'GET', `/v1/spaces/${space.id}`), 401);
    expectError(await g.call(null, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'x' }), 401);
    expectError(await g.call(owner, 'GET', '/v1/spaces/unknown'), 404, /Space "unknown" not found/);
    expectError(await g.call(owner, 'POST', '/v1/spaces/unknown/restore'), 404);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${space.id}`), 404);
    expectError(await g.call(outsider, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Mine' }), 404);
    expectError(await g.call(outsider, 'DELETE', `/v1/spaces/${space.id}`), 404);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${otherOrgId}/spaces`), 404, /organization/);
    expectError(await g.call(owner, 'POST', `/v1/orgs/${otherOrgId}/spaces`, { title: 'x' }), 404, /organization/);
    expectError(await g.call(owner, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: otherOrgId }), 404, /organization/);
    expectError(await g.call(reader, 'PATCH', `/v1/spaces/${space.id}`, { title: 'By reader' }), 403);
    expectError(await g.call(reader, 'DELETE', `/v1/spaces/${space.id}`), 403);
    expectError(await g.call(reader, 'POST', `/v1/spaces/${space.id}/duplicate`), 403);
    expectError(await g.call(reader, 'POST', `/v1/spaces/${space.id}/move`, { parent: null }), 403);
    expectError(await g.call(editor, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: targetOrgId }), 403);
    expectError(await g.call(editor, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'x' }), 403);
    expect(await snapshot(`/v1/spaces/${space.id}`)).toEqual(before);
  });
});

describe('collections over HTTP', () => {
  it('creates, reads, updates, lists nested or not, moves, transfers and deletes', async ({ g, team: { owner, reader, orgId }, targetOrgId, createSpace, createCollection }) => {
    const top = await createCollection({ title: 'Top' });
    expect(top).toEqual({
      object: 'collection',
      id: expect.any(String),
      title: 'Top',
      organization: orgId,
      defaultLevel: 'inherit',
      urls: { location: `http://127.0.0.1:8080/v1/collections/${top.id}`, app: `http://127.0.0.1:8080/o/${orgId}/c/${top.id}` },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const sub = await createCollection({ title: 'Sub', parent: top.id });
    expect(sub.parent).toBe(top.id);
    expect(await ok(g.call(reader, 'GET', `/v1/collections/${sub.id}`))).toMatchObject({ permissions: { view: true, admin: false } });
    const updated = await ok(g.call(owner, 'PATCH', `/v1/collections/${sub.id}`, { title: 'Renamed', description: 'About', defaultLevel: 'comment' }));
    expect(updated).toMatchObject({ title: 'Renamed', description: 'About', defaultLevel: 'comment' });
    const nested = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/collections?limit=1000`));
    expect(nested.items.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([top.id, sub.id]));
    const roots = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/collections?nested=false&limit=1000`));
    expect(roots.items.map((c: { id: string }) => c.id)).toContain(top.id);
    expect(roots.items.map((c: { id: string }) => c.id)).not.toContain(sub.id);
    const space = await createSpace({ parent: sub.id });
    expect((await ok(g.call(owner, 'POST', `/v1/collections/${sub.id}/move`, { parent: null }))).parent).toBeUndefined();
    const sibling = await createCollection({ title: 'Sibling', parent: top.id });
    const moved = await ok(g.call(owner, 'POST', `/v1/collections/${sub.id}/move`, { parent: top.id, position: { before: { type: 'collection', collection: sibling.id } } }));
    expect(moved.parent).toBe(top.id);
    const del = await g.call(owner, 'DELETE', `/v1/collections/${sub.id}`);
    expect(del.statusCode).toBe(205);
    expectError(await g.call(owner, 'GET', `/v1/collections/${sub.id}`), 404);
    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}`))).parent).toBe(top.id);
    const transferred = await ok(g.call(owner, 'POST', `/v1/collections/${top.id}/transfer`, { organization: targetOrgId }));
    expect(transferred.organization).toBe(targetOrgId);
    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}`))).organization).toBe(targetOrgId);
  });

  it('refuses bad input with 400, readers with 403, outsiders and unknown ids with 404, no token with 401, changing nothing', async ({
    g,
    team: { owner, reader, outsider, orgId, otherOrgId },
    createCollection,
    snapshot,
  }) => {
    const col = await createCollection();
    const before = await snapshot(`/v1/collections/${col.id}`);
    const patches: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x'.repeat(51) }, /title/],
      [{ title: '' }, /^title: /],
      [{ description: 'd'.repeat(101) }, /description/],
      [{ description: 5 }, /description/],
      [{ defaultLevel: 'owner' }, /defaultLevel/],
    ];
    for (const [body, message] of patches) expectError(await g.call(owner, 'PATCH', `/v1/collections/${col.id}`, body), 400, message);
    expectError(await g.call(owner, 'POST', `/v1/orgs/${orgId}/collections`, { title: 'x'.repeat(51) }), 400, /title/);
    expectError(await g.call(owner, 'POST', `/v1/collections/${col.id}/move`, { parent: col.id }), 400, /^parent: a collection cannot move into itself/);
    expectError(await g.call(owner, 'POST', `/v1/collections/${col.id}/move`, {}), 400, /body/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/collections?limit=1001`), 400, /limit/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/collections?nested=maybe`), 400, /nested/);
    expectError(await g.call(owner, 'GET', `/v1/collections/${col.id}/spaces?limit=1001`), 400, /limit/);
    expectError(await g.call(reader, 'PATCH', `/v1/collections/${col.id}`, { title: 'By reader' }), 403);
    expectError(await g.call(reader, 'DELETE', `/v1/collections/${col.id}`), 403);
    expectError(await g.call(reader, 'POST', `/v1/collections/${col.id}/move`, { parent: null }), 403);
    expectError(await g.call(reader, 'POST', `/v1/orgs/${orgId}/collections`, { title: 'x' }), 403);
    expectError(await g.call(owner, 'POST', `/v1/collections/${col.id}/transfer`, { organization: otherOrgId }), 404);
    expectError(await g.call(outsider, 'GET', `/v1/collections/${col.id}`), 404);
    expectError(await g.call(outsider, 'GET', `/v1/collections/${col.id}/spaces`), 404);
    expectError(await g.call(outsider, 'DELETE', `/v1/collections/${col.id}`), 404);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${otherOrgId}/collections`), 404);
    expectError(await g.call(owner, 'GET', '/v1/collections/unknown'), 404, /Collection "unknown" not found/);
    expectError(await g.call(null, 'GET', `/v1/collections/${col.id}`), 401);
    expect(await snapshot(`/v1/collections/${col.id}`)).toEqual(before);
  });
});

describe('@gitbook/api 0.130.0 on spaces', () => {
  it('creates and reads a space, and restores one without a body', async ({ origin, team: { owner, orgId } }) => {
    const api = new GitBookAPI({ endpoint: origin, authToken: owner.token });
    const { data: col } = await api.orgs.createCollection(orgId, { title: 'From the client' });
    const { data: created } = await api.orgs.createSpace(orgId, { title: 'Client space', parent: col.id });
    expect(created).toMatchObject({ object: 'space', title: 'Client space', parent: col.id });
    const { data: read } = await api.spaces.getSpaceById(created.id);
    expect(read).toMatchObject({ id: created.id, revision: created.revision, organization: orgId });
    await api.spaces.deleteSpaceById(created.id);
    const { data: restored } = await api.spaces.restoreSpace(created.id);
    expect(restored.id).toBe(created.id);
    const { data: copy } = await api.spaces.duplicateSpace(created.id);
    expect(copy.title).toBe('Client space (copy)');
  });
});
