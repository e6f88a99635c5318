import { describe, expect } from 'vitest';
import { expectError, ok } from './harness.ts';
import { test as base } from './fixtures.ts';

const test = base.extend<{ place: { spaceId: string; cr: { id: string; number: number }; pageId: string; base: string } }>({
  // A page in a change request of the team's space: the comments' place.
  place: async ({ g, team: { owner }, space, changeRequest: cr }, use) => {
    await ok(
      g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro\n' } }],
      }),
    );
    const pageId = (await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`))).pages[0].id;
    await use({ spaceId: space.id, cr, pageId, base: `/v1/spaces/${space.id}/change-requests/${cr.number}/comments` });
  },
});

describe('comments and replies over HTTP', () => {
  test('posts, reads, lists with filters, resolves, reacts and counts', async ({ g, team: { owner, editor, commenter, reader }, place: { spaceId, base, pageId, cr } }) => {
    const first = await ok(g.call(commenter, 'POST', base, { page: pageId, node: 'n1', body: { markdown: 'Nice intro' } }));
    expect(first).toEqual({
      object: 'comment',
      id: expect.any(String),
      postedBy: expect.objectContaining({ object: 'user', id: commenter.id }),
      postedAt: expect.any(String),
      reactions: [],
      replies: 0,
      body: { markdown: 'Nice intro' },
      target: { node: { id: 'n1' }, changeRequest: cr.id, page: { id: pageId, title: 'Intro', path: 'intro', outdated: false }, space: spaceId, revision: expect.any(String) },
      urls: { location: `http://127.0.0.1:8080/v1/spaces/${spaceId}/change-requests/${cr.id}/comments/${first.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
      status: 'open',
    });
    const second = await ok(g.call(editor, 'POST', base, { body: {} }));
    expect(second.body).toEqual({ markdown: '' });

    expect((await ok(g.call(owner, 'GET', `${base}/${first.id}`))).permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    expect((await ok(g.call(reader, 'GET', `${base}/${first.id}`))).permissions).toEqual({ view: true, edit: false, reply: false, delete: false });

    const resolved = await ok(g.call(editor, 'PUT', `${base}/${first.id}`, { resolved: true, addedReactions: ['👍'] }));
    expect(resolved).toMatchObject({ status: 'resolved', resolvedAt: expect.any(String), resolvedBy: { id: editor.id } });
    await ok(g.call(owner, 'PUT', `${base}/${first.id}`, { addedReactions: ['👍', '🎉'] }));
    const reacted = await ok(g.call(owner, 'PUT', `${base}/${first.id}`, { addedReactions: ['👍'] }));
    expect(reacted.reactions.map((r: { emoji: string; count: number; users: { user: { id: string } }[] }) => [r.emoji, r.count, r.users.map((u) => u.user.id)])).toEqual([
      ['👍', 2, [editor.id, owner.id]],
      ['🎉', 1, [owner.id]],
    ]);
    expect((await ok(g.call(owner, 'PUT', `${base}/${first.id}`, { removedReactions: ['🎉'] }))).reactions).toHaveLength(1);
    const edited = await ok(g.call(commenter, 'PUT', `${base}/${first.id}`, { body: { markdown: 'Nice intro!' } }));
    expect(edited).toMatchObject({ body: { markdown: 'Nice intro!' }, editedAt: expect.any(String) });

    const ids = async (q: string, base_ = base) => (await ok(g.call(owner, 'GET', `${base_}${q}`))).items.map((c: { id: string }) => c.id);
    expect(await ids('')).toEqual([second.id, first.id]);
    expect(await ids('?order=asc')).toEqual([first.id, second.id]);
    expect(await ids('?status=open')).toEqual([second.id]);
    expect(await ids('?status=resolved')).toEqual([first.id]);
    expect(await ids(`?targetPage=${pageId}`)).toEqual([first.id]);
    expect(await ids(`?authors=${commenter.id}&authors=${editor.id}`)).toEqual([second.id, first.id]);
    expect(await ids(`?authors=${editor.id}`)).toEqual([second.id]);
    const paged = await ok(g.call(owner, 'GET', `${base}?limit=1`));
    expect(paged.items).toHaveLength(1);
    expect(await ids(`?limit=1&page=${paged.next.page}`)).toEqual([first.id]);
    expect(await ids('', `/v1/spaces/${spaceId}/comments`)).toEqual([second.id, first.id]);

    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`))).comments).toBe(1);
    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}`))).comments).toBe(1);
  });

  test('refuses what the caller may not do, bad input and hidden spaces', async ({ g, team: { owner, editor, commenter, reader, outsider }, place: { spaceId, base } }) => {
    const c = await ok(g.call(commenter, 'POST', base, { body: { markdown: 'Mine' } }));
    expectError(await g.call(reader, 'POST', base, { body: { markdown: 'No' } }), 403, /comment permission/);
    expectError(await g.call(editor, 'PUT', `${base}/${c.id}`, { body: { markdown: 'Not mine' } }), 403, /author/);
    expectError(await g.call(reader, 'PUT', `${base}/${c.id}`, { resolved: true }), 403);
    expectError(await g.call(editor, 'DELETE', `${base}/${c.id}`), 403, /author .* or an admin/);
    expectError(await g.call(outsider, 'GET', `${base}/${c.id}`), 404);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/comments`), 404);
    expectError(await g.call(owner, 'GET', `${base}/nope`), 404, /Comment "nope" not found/);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/99/comments`), 404, /Change request "99"/);
    expectError(await g.call(owner, 'POST', base, { body: { markdown: 'x'.repeat(20_001) } }), 400, /markdown/);
    expectError(await g.call(owner, 'POST', base, { body: { document: {} } }), 400, /body/);
    expectError(await g.call(owner, 'POST', base, { page: 'missing', body: { markdown: 'x' } }), 400, /page: "missing"/);
    expectError(await g.call(owner, 'GET', `${base}?status=closed`), 400, /status/);
    expectError(await g.call(owner, 'GET', `${base}?order=sideways`), 400, /order/);
    expectError(await g.call(owner, 'PUT', `${base}/${c.id}`, { addedReactions: [''] }), 400, /addedReactions/);
    await ok(g.call(owner, 'DELETE', `${base}/${c.id}`), 205);
    expectError(await g.call(owner, 'GET', `${base}/${c.id}`), 404);
  });

  test('replies: post, list, get, edit, react and delete, with the same rights', async ({ g, team: { owner, editor, commenter, reader }, place: { spaceId, base, cr } }) => {
    const c = await ok(g.call(owner, 'POST', base, { body: { markdown: 'Question?' } }));
    const replies = `${base}/${c.id}/replies`;
    const r1 = await ok(g.call(commenter, 'POST', replies, { body: { markdown: 'Answer' } }));
    expect(r1).toEqual({
      object: 'comment-reply',
      id: expect.any(String),
      postedBy: expect.objectContaining({ id: commenter.id }),
      postedAt: expect.any(String),
      reactions: [],
      body: { markdown: 'Answer' },
      urls: { location: `http://127.0.0.1:8080/v1/spaces/${spaceId}/change-requests/${cr.number}/comments/${c.id}/replies/${r1.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    const r2 = await ok(g.call(editor, 'POST', replies, { body: { markdown: 'Another' } }));
    expect((await ok(g.call(owner, 'GET', `${base}/${c.id}`))).replies).toBe(2);
    expect((await ok(g.call(owner, 'GET', replies))).items.map((r: { id: string }) => r.id)).toEqual([r1.id, r2.id]);
    expect((await ok(g.call(owner, 'GET', `${replies}/${r1.id}`))).body.markdown).toBe('Answer');
    expect(await ok(g.call(commenter, 'PUT', `${replies}/${r1.id}`, { body: { markdown: 'Better answer' }, addedReactions: ['✅'] }))).toMatchObject({
      body: { markdown: 'Better answer' },
      editedAt: expect.any(String),
      reactions: [{ emoji: '✅', count: 1 }],
    });
    expectError(await g.call(editor, 'PUT', `${replies}/${r1.id}`, { body: { markdown: 'Hijack' } }), 403);
    expectError(await g.call(reader, 'POST', replies, { body: { markdown: 'No' } }), 403);
    expectError(await g.call(editor, 'DELETE', `${replies}/${r1.id}`), 403);
    await ok(g.call(editor, 'DELETE', `${replies}/${r2.id}`), 205);
    await ok(g.call(owner, 'DELETE', `${replies}/${r1.id}`), 205);
    expectError(await g.call(owner, 'GET', `${replies}/${r1.id}`), 404, /reply/);
    expect((await ok(g.call(owner, 'GET', `${base}/${c.id}`))).replies).toBe(0);
  });
});
