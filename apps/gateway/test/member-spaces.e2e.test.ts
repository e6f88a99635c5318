import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@quire/service-kit';
import type { TestUser } from '@quire/orgs/testing';
import { expectError, startGateway } from './harness.ts';

let g: Awaited<ReturnType<typeof startGateway>>;
let owner: TestUser;
let editor: TestUser;
let outsider: TestUser;
let orgId: string;

beforeAll(async () => {
  g = await startGateway();
  [owner, editor, outsider] = await Promise.all([g.orgs.user('owner'), g.orgs.user('editor'), g.orgs.user('outsider')]);
  orgId = (await g.orgs.organization(owner, [[editor, Role.ROLE_EDIT]])).id;
  await g.orgs.organization(outsider, [], 'Elsewhere');
});
afterAll(() => g?.stop());

describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
  it("answers the member's spaces with the member's permission on each", async () => {
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

  it('answers bad input and strangers with the error body', async () => {
    expectError(await g.call(outsider, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces`), 404);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${outsider.id}/spaces`), 404, /Member/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces?limit=1001`), 400, /limit/);
    expectError(await g.call(owner, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces?order=sideways`), 400, /order/);
    expectError(await g.call(null, 'GET', `/v1/orgs/${orgId}/members/${editor.id}/spaces`), 401);
  });
});
