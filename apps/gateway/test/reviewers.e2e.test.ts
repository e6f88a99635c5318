import { Role } from '@quire/policy';
import { describe, expect } from 'vitest';
import { expectError, ok } from './harness.ts';
import { test as base, tenant, type Tenant } from './fixtures.ts';

const test = base.extend<{ org: Tenant<'editor' | 'reviewer'>; opened: { spaceId: string; cr: { number: number; revision: string }; base: string } }>({
  org: async ({ g }, use) => use(await tenant(g, { editor: Role.ROLE_EDIT, reviewer: Role.ROLE_REVIEW })),
  // A change request the editor opened on a new space of the organization.
  opened: async ({ g, org: { owner, editor, orgId } }, use) => {
    const spaceId = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Docs' }), 201)).id;
    const cr = await ok(g.call(editor, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' }), 201);
    await use({ spaceId, cr, base: `/v1/spaces/${spaceId}/change-requests/${cr.number}` });
  },
});

describe('requested reviewers and reviews over HTTP', () => {
  test('requests members, lists and removes them; renames with subject', async ({ g, org: { owner, editor, reviewer, outsider }, opened: { cr, base } }) => {
    const res = await ok(g.call(editor, 'POST', `${base}/requested-reviewers`, { users: [reviewer.id, owner.id], subject: 'Please review' }));
    expect(res.users).toHaveLength(2);
    expect(res.users.find((u: { user: { id: string } }) => u.user.id === reviewer.id)).toEqual({
      object: 'change-request-requested-reviewer',
      revision: cr.revision,
      requestedBy: expect.objectContaining({ object: 'user', id: editor.id }),
      createdAt: expect.any(String),
      kind: 'user',
      user: expect.objectContaining({ object: 'user', id: reviewer.id, email: reviewer.email }),
    });
    expect((await ok(g.call(owner, 'GET', base))).subject).toBe('Please review');
    const listed = await ok(g.call(owner, 'GET', `${base}/requested-reviewers`));
    expect(listed.items.map((r: { user: { id: string } }) => r.user.id).sort()).toEqual([reviewer.id, owner.id].sort());
    await ok(g.call(editor, 'DELETE', `${base}/requested-reviewers/${owner.id}`), 205);
    expect((await ok(g.call(owner, 'GET', `${base}/requested-reviewers`))).count).toBe(1);

    expectError(await g.call(editor, 'POST', `${base}/requested-reviewers`, { users: [outsider.id] }), 400, /not a member/);
    expectError(await g.call(editor, 'POST', `${base}/requested-reviewers`, { users: [] }), 400, /users/);
    expectError(await g.call(editor, 'POST', `${base}/requested-reviewers`, { users: [reviewer.id], subject: 'x'.repeat(101) }), 400, /subject/);
    expectError(await g.call(outsider, 'DELETE', `${base}/requested-reviewers/${reviewer.id}`), 404);
    expectError(await g.call(editor, 'DELETE', `${base}/requested-reviewers/${owner.id}`), 404, /not a requested reviewer/);
    expectError(await g.call(outsider, 'GET', `${base}/requested-reviewers`), 404);
  });

  test('takes reviews from reviewers, with a comment, and lists them with the earlier ones outdated', async ({
    g,
    org: { owner, editor, reviewer, outsider },
    opened: { spaceId, base },
  }) => {
    await ok(g.call(editor, 'POST', `${base}/requested-reviewers`, { users: [reviewer.id] }));
    const first = await ok(g.call(reviewer, 'POST', `${base}/reviews`, { status: 'changes-requested', comment: { markdown: 'Fix the title' } }), 201);
    expect(first).toMatchObject({
      object: 'change-request-review',
      status: 'changes-requested',
      reviewer: { id: reviewer.id },
      requestedBy: { id: editor.id },
      outdated: false,
      comment: { object: 'comment', body: { markdown: 'Fix the title' }, target: { review: first.id, space: spaceId } },
    });
    await ok(g.call(reviewer, 'POST', `${base}/reviews`, { status: 'approved' }), 201);
    const reviews = await ok(g.call(editor, 'GET', `${base}/reviews`));
    expect(reviews.items.map((r: { status: string; outdated: boolean }) => [r.status, r.outdated])).toEqual([
      ['changes-requested', true],
      ['approved', false],
    ]);
    expect((await ok(g.call(owner, 'GET', `${base}/comments`))).count).toBe(1);
    expectError(await g.call(editor, 'POST', `${base}/reviews`, { status: 'approved' }), 403, /review permission/);
    expectError(await g.call(reviewer, 'POST', `${base}/reviews`, { status: 'lgtm' }), 400, /status/);
    expectError(await g.call(reviewer, 'POST', `${base}/reviews`, {}), 400, /status/);
    expectError(await g.call(outsider, 'POST', `${base}/reviews`, { status: 'approved' }), 404);
  });
});
