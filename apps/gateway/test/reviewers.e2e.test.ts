import type { TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, ok, type Gateway } from './harness.ts';
import { gatewayWithTenant } from './fixtures.ts';

let g: Gateway, owner: TestUser, editor: TestUser, reviewer: TestUser, outsider: TestUser, orgId: string;

beforeAll(async () => {
  ({ g, owner, editor, reviewer, outsider, orgId } = await gatewayWithTenant({}, { editor: Role.ROLE_EDIT, reviewer: Role.ROLE_REVIEW }));
});
afterAll(() => g?.stop());

async function changeRequest() {
  const spaceId = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Docs' }), 201)).id;
  const cr = await ok(g.call(editor, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' }), 201);
  return { spaceId, cr, base: `/v1/spaces/${spaceId}/change-requests/${cr.number}` };
}

describe('requested reviewers and reviews over HTTP', () => {
  it('requests members, lists and removes them; renames with subject', async () => {
    const { base, cr } = await changeRequest();
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

  it('takes reviews from reviewers, with a comment, and lists them with the earlier ones outdated', async () => {
    const { base, spaceId } = await changeRequest();
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
