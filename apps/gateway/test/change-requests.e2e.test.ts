import { GitBookAPI } from '@gitbook/api';
import type { TestUser } from '@quire/orgs/testing';
import { describe, expect } from 'vitest';
import { expectError, ok, type Gateway } from './harness.ts';
import { test as base } from './fixtures.ts';

// Each test in an organization of its own (fixtures.ts), on spaces it makes.

const crs = (spaceId: string) => `/v1/spaces/${spaceId}/change-requests`;
const insert = (title: string, markdown: string) => ({ operation: 'insert_page', title, document: { markdown } });
const update = (page: string, markdown: string) => ({ operation: 'update_page', page, document: { markdown } });

/** Spaces, change requests and their content, as `owner` of `orgId` through the API. */
function authoring(g: Gateway, owner: TestUser, orgId: string) {
  const newSpace = async () => (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Docs' }), 201)).id as string;
  const createCr = (spaceId: string, subject = 'Edit') => ok(g.call(owner, 'POST', crs(spaceId), { subject }), 201);
  const change = (spaceId: string, cr: { number: number }, changes: unknown[], user = owner) => g.call(user, 'POST', `${crs(spaceId)}/${cr.number}/content`, { changes });
  const merge = (spaceId: string, cr: { id: string }) => g.call(owner, 'POST', `${crs(spaceId)}/${cr.id}/merge`);
  const pagesOf = async (spaceId: string) =>
    (await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/pages`))).pages as { id: string; title: string; pages: { title: string }[] }[];
  /** A space with these pages, put there through a merged change request. */
  async function spaceWith(...titles: string[]) {
    const spaceId = await newSpace();
    const cr = await createCr(spaceId, 'Seed');
    await ok(
      change(
        spaceId,
        cr,
        titles.map((t) => insert(t, `# ${t}\n\nline one\n\nline two\n\nline three\n`)),
      ),
    );
    await ok(merge(spaceId, cr));
    const pages = await pagesOf(spaceId);
    return { spaceId, page: (title: string) => pages.find((p) => p.title === title)!.id };
  }
  return { newSpace, createCr, change, merge, pagesOf, spaceWith };
}

const it = base.extend<{ otherSpaceId: string; authoring: ReturnType<typeof authoring> }>({
  // A space of the outsider's own organization: hidden from the team.
  otherSpaceId: async ({ g, team: { outsider, otherOrgId } }, use) => use((await ok(g.call(outsider, 'POST', `/v1/orgs/${otherOrgId}/spaces`, { title: 'Theirs' }), 201)).id),
  authoring: async ({ g, team: { owner, orgId } }, use) => use(authoring(g, owner, orgId)),
});

describe('change requests over HTTP', () => {
  it('creates, reads by id and number, lists with filters and patches in the reference shape', async ({
    g,
    team: { owner, editor, reader, orgId },
    authoring: { newSpace, createCr },
  }) => {
    const spaceId = await newSpace();
    const space = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}`));
    const cr = await createCr(spaceId, 'First');
    expect(cr).toEqual({
      object: 'change-request',
      id: expect.any(String),
      number: 1,
      status: 'open',
      subject: 'First',
      createdBy: { object: 'user', id: owner.id, displayName: 'owner', email: owner.email, urls: { location: `http://127.0.0.1:8080/v1/users/${owner.id}` } },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      urls: { location: `http://127.0.0.1:8080/v1/spaces/${spaceId}/change-requests/${cr.id}`, app: `http://127.0.0.1:8080/o/${orgId}/s/${spaceId}/~/changes/1` },
    });
    expect(await ok(g.call(reader, 'GET', `${crs(spaceId)}/1`))).toEqual(cr);
    const second = await ok(g.call(editor, 'POST', crs(spaceId), { agentTaskId: 'task-1' }), 201);
    expect(second).toMatchObject({ number: 2, subject: '' });
    expect((await ok(g.call(owner, 'PATCH', `${crs(spaceId)}/2`, { status: 'draft', subject: 'Second' }))).status).toBe('draft');

    const ids = async (query: string) => (await ok(g.call(owner, 'GET', `${crs(spaceId)}${query}`))).items.map((c: { number: number }) => c.number);
    expect(await ids('')).toEqual([1]);
    expect(await ids('?status=draft')).toEqual([2]);
    expect(await ids(`?status=draft&contributor=${editor.id}`)).toEqual([2]);
    expect(await ids(`?status=open&contributor=${editor.id}`)).toEqual([]);
    const page = await ok(g.call(owner, 'GET', `${crs(spaceId)}?status=draft&limit=1`));
    expect(page).toMatchObject({ count: 1 });

    expect(await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}`))).toMatchObject({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1, comments: 0 });
    const listed = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/spaces`));
    expect(listed.items.find((s: { id: string }) => s.id === spaceId)).toMatchObject({ changeRequests: 2, changeRequestsOpen: 1 });
    const counted = { changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1 };
    const mine = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${owner.id}/spaces`));
    expect(mine.items.find((i: { space: { id: string } }) => i.space.id === spaceId).space).toMatchObject(counted);
    // Every list that embeds spaces shows them alike: a collection's spaces, a site's site-spaces.
    const collection = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/collections`, { title: 'Guides' }), 201);
    await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/move`, { parent: collection.id }));
    expect((await ok(g.call(owner, 'GET', `/v1/collections/${collection.id}/spaces`))).items[0]).toMatchObject({ id: spaceId, ...counted });
    const site = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/sites`, { title: 'Docs site' }), 201);
    await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces`, { spaceId }), 201);
    expect((await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces`))).items[0].space).toMatchObject({ id: spaceId, ...counted });
  });

  it('refuses bad input, hidden spaces and readers with the error body', async ({ g, team: { owner, reader }, authoring: { newSpace, createCr }, otherSpaceId }) => {
    const spaceId = await newSpace();
    await createCr(spaceId);
    expectError(await g.call(owner, 'POST', crs(spaceId), { subject: 'x'.repeat(101) }), 400, /subject/);
    expectError(await g.call(owner, 'PATCH', `${crs(spaceId)}/1`, { subject: 'x'.repeat(101) }), 400, /subject/);
    expectError(await g.call(owner, 'PATCH', `${crs(spaceId)}/1`, { status: 'closed' }), 400, /status/);
    expectError(await g.call(owner, 'PATCH', `${crs(spaceId)}/1`, { status: 'merged' }), 400, /merging/);
    expectError(await g.call(owner, 'GET', `${crs(spaceId)}?status=closed`), 400, /status/);
    expectError(await g.call(owner, 'GET', `${crs(spaceId)}/99`), 404, /Change request "99" not found/);
    expectError(await g.call(owner, 'GET', `${crs(otherSpaceId)}`), 404);
    expectError(await g.call(owner, 'POST', crs(otherSpaceId), { subject: 'Mine now' }), 404);
    expectError(await g.call(reader, 'POST', crs(spaceId), { subject: 'Reader' }), 403, /edit permission/);
    expectError(await g.call(reader, 'PATCH', `${crs(spaceId)}/1`, { subject: 'Reader' }), 403);
    expectError(await g.call(null, 'GET', crs(spaceId)), 401);
  });

  it('authors content as one revision per batch and refuses a bad batch whole, naming the change', async ({
    g,
    team: { owner, reader },
    authoring: { newSpace, createCr, change, pagesOf },
  }) => {
    const spaceId = await newSpace();
    const cr = await createCr(spaceId);
    const edited = await ok(change(spaceId, cr, [insert('Guide', '# Guide\n\nHello\n'), insert('FAQ', 'Q?')]));
    expect(edited).toMatchObject({ object: 'change-request', number: 1 });
    expect(edited.revision).not.toBe(cr.revision);
    const crPages = await ok(g.call(owner, 'GET', `${crs(spaceId)}/1/content/pages`));
    expect(crPages.pages.map((p: { title: string }) => p.title)).toEqual(['Guide', 'FAQ']);
    const guide = crPages.pages[0].id;
    expect((await ok(g.call(owner, 'GET', `${crs(spaceId)}/1/content/page/${guide}?format=markdown`))).markdown).toContain('Hello');
    expect((await ok(g.call(owner, 'GET', `${crs(spaceId)}/1/content`))).id).toBe(edited.revision);
    expect(await pagesOf(spaceId)).toEqual([]);
    // `at` without `into` reorders among the current siblings (GitBook's update_page).
    await ok(change(spaceId, cr, [{ operation: 'update_page', page: crPages.pages[1].id, at: 0 }]));
    expect((await ok(g.call(owner, 'GET', `${crs(spaceId)}/1/content/pages`))).pages.map((p: { title: string }) => p.title)).toEqual(['FAQ', 'Guide']);

    expectError(await change(spaceId, cr, [insert('Ok', 'x'), { operation: 'delete_page', page: 'missing' }]), 400, /changes\[1\]/);
    expectError(await change(spaceId, cr, [insert('Ok', 'x'), { operation: 'update_page' }]), 400, /^body\.changes\[1\]\.page/);
    expectError(await change(spaceId, cr, [{ operation: 'rename_page', page: guide }]), 400, /changes\.0\.operation/);
    expectError(
      await change(
        spaceId,
        cr,
        Array.from({ length: 51 }, (_, i) => insert(`P${i}`, 'x')),
      ),
      400,
      /changes: must NOT have more than 50 items/,
    );
    expectError(await change(spaceId, cr, []), 400, /changes/);
    expectError(await change(spaceId, cr, [insert('No', 'x')], reader), 403);
    const reordered = (await ok(g.call(owner, 'GET', `${crs(spaceId)}/1`))).revision;
    expect(reordered).not.toBe(edited.revision);
    expectError(await change(spaceId, cr, [insert('Ok', 'x'), { operation: 'delete_page', page: 'missing' }]), 400);
    expect((await ok(g.call(owner, 'GET', `${crs(spaceId)}/1`))).revision).toBe(reordered);
  });

  it('merges cleanly, then refuses to merge again; updates an outdated change request', async ({
    g,
    team: { owner, editor },
    authoring: { createCr, change, merge, spaceWith },
  }) => {
    const { spaceId, page } = await spaceWith('Intro', 'Setup');
    const a = await createCr(spaceId, 'A');
    const b = await createCr(spaceId, 'B');
    await ok(change(spaceId, a, [update(page('Setup'), '# Setup\n\nline one\n\nA changed\n\nline three\n')]));
    await ok(change(spaceId, b, [update(page('Intro'), '# Intro\n\nline one\n\nB changed\n\nline three\n')]));
    const merged = await ok(merge(spaceId, a));
    expect(merged).toEqual({ revision: expect.any(String), result: 'merge' });
    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}`))).revision).toBe(merged.revision);
    // The merge revision names the change request it came from (GitBook's Revision of type merge).
    expect(await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/revisions/${merged.revision}`))).toMatchObject({
      id: merged.revision,
      type: 'merge',
      mergedFrom: { object: 'change-request', id: a.id, number: a.number },
    });
    expect(await ok(g.call(owner, 'GET', `${crs(spaceId)}/${a.id}`))).toMatchObject({ status: 'merged', revisionMerged: merged.revision });
    expectError(await merge(spaceId, a), 412, /is merged: only an open change request can be merged/);

    expect((await ok(g.call(owner, 'GET', `${crs(spaceId)}/${b.id}`))).outdated).toBe(true);
    const updated = await ok(g.call(owner, 'POST', `${crs(spaceId)}/${b.id}/update`));
    expect(updated).toEqual({ revision: expect.any(String), result: 'update' });
    expect(await ok(g.call(owner, 'GET', `${crs(spaceId)}/${b.id}`))).toMatchObject({ outdated: false, revision: updated.revision, revisionMergedAncestor: merged.revision });
    await ok(merge(spaceId, b));
    const draft = await createCr(spaceId, 'Draft');
    await ok(g.call(owner, 'PATCH', `${crs(spaceId)}/${draft.id}`, { status: 'draft' }));
    expectError(await merge(spaceId, draft), 412, /is draft/);
    expectError(await g.call(editor, 'POST', `${crs(spaceId)}/${draft.id}/merge`), 403, /merge permission/);
  });

  it('answers 409 naming the pages on conflicts (edit/edit, delete/edit) and merges a move with an edit', async ({
    g,
    team: { owner },
    authoring: { createCr, change, merge, pagesOf, spaceWith },
  }) => {
    const { spaceId, page } = await spaceWith('Intro', 'Setup', 'Usage');
    const [a, b] = [await createCr(spaceId, 'A'), await createCr(spaceId, 'B')];
    await ok(change(spaceId, a, [update(page('Setup'), '# Setup\n\nline one\n\nA wrote this\n\nline three\n')]));
    await ok(change(spaceId, b, [update(page('Setup'), '# Setup\n\nline one\n\nB wrote that\n\nline three\n')]));
    await ok(merge(spaceId, a));
    const before = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}`));
    expectError(await merge(spaceId, b), 409, /conflicts with the space's content on 1 page\(s\): "Setup"/);
    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}`))).revision).toBe(before.revision);
    expect((await ok(g.call(owner, 'GET', `${crs(spaceId)}/${b.id}`))).status).toBe('open');

    const [mover, editing] = [await createCr(spaceId, 'Move'), await createCr(spaceId, 'Edit')];
    await ok(change(spaceId, mover, [{ operation: 'update_page', page: page('Usage'), into: page('Intro') }]));
    await ok(change(spaceId, editing, [update(page('Usage'), '# Usage\n\nline one\n\nedited\n\nline three\n')]));
    await ok(merge(spaceId, mover));
    await ok(merge(spaceId, editing));
    expect((await pagesOf(spaceId)).find((p) => p.title === 'Intro')!.pages.map((p) => p.title)).toEqual(['Usage']);

    const [deleter, editor2] = [await createCr(spaceId, 'Delete'), await createCr(spaceId, 'Edit again')];
    await ok(change(spaceId, deleter, [{ operation: 'delete_page', page: page('Usage') }]));
    await ok(change(spaceId, editor2, [update(page('Usage'), '# Usage\n\nstill needed\n')]));
    await ok(merge(spaceId, deleter));
    expectError(await merge(spaceId, editor2), 409, /"Usage"/);
  });

  it('lets one of two racing merges touching one page win; the other gets 409', async ({ authoring: { createCr, change, merge, spaceWith } }) => {
    const { spaceId, page } = await spaceWith('Intro');
    const [a, b] = [await createCr(spaceId, 'A'), await createCr(spaceId, 'B')];
    await ok(change(spaceId, a, [update(page('Intro'), '# Intro\n\nA\n')]));
    await ok(change(spaceId, b, [update(page('Intro'), '# Intro\n\nB\n')]));
    const results = await Promise.all([merge(spaceId, a), merge(spaceId, b)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expectError(
      results.find((r) => r.statusCode === 409)!,
      409,
    );
  });
});

describe('@gitbook/api 0.130.0: change requests', () => {
  it('creates, lists and merges a change request', async ({ team: { owner }, authoring: { newSpace, change }, origin }) => {
    const api = new GitBookAPI({ endpoint: origin, authToken: owner.token });
    const spaceId = await newSpace();
    const { data: cr } = await api.spaces.createChangeRequest(spaceId, { subject: 'From the client' });
    expect(cr).toMatchObject({ object: 'change-request', number: 1, status: 'open', subject: 'From the client' });
    const { data: listed } = await api.spaces.listChangeRequestsForSpace(spaceId);
    expect(listed.items.map((c) => c.id)).toEqual([cr.id]);
    await ok(change(spaceId, cr, [insert('Hello', '# Hello\n')]));
    const { data: merged } = await api.spaces.mergeChangeRequest(spaceId, cr.id);
    expect(merged).toMatchObject({ result: 'merge' });
    const { data: after } = await api.spaces.getChangeRequestById(spaceId, String(cr.number));
    expect(after).toMatchObject({ status: 'merged', revisionMerged: merged.revision });
  });
});
