import { describe, expect } from 'vitest';
import { expectError } from './harness.ts';
import { test as it } from './fixtures.ts';

// Each test in an organization of its own (fixtures.ts): the counts are its spaces alone.

describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
  it("answers the member's spaces with the member's permission on each", async ({ g, team: { owner, editor, orgId } }) => {
    const a = (await g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Alpha' })).json();
    const b = (await g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Beta' })).json();
    const res = await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces?order=asc`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      count: 2,
      items: [
        { permission: 'edit', space: { object: 'space', id: a.id } },
        { permission: 'edit', space: { id: b.id } },
      ],
    });
    const newest = (await g.call(editor, 'GET', `/v1/orgs/${orgId}/members/${owner.id}/spaces?limit=1`)).json();
    expect(newest).toMatchObject({ count: 1, items: [{ permission: 'admin', space: { id: b.id } }], next: { page: expect.any(String) } });
  });

  it('answers bad input and strangers with the error body', async ({ g, team: { owner, editor, outsider, orgId } }) => {
    expectError(await g.call(outsider, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces`), 404);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${outsider.id}/spaces`), 404, /Member/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces?limit=1001`), 400, /limit/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces?order=sideways`), 400, /order/);
    expectError(await g.call(null, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces`), 401);
  });
});
