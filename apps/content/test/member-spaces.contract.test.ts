import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListMemberSpacesRequest, ListMemberSpacesResponse, Space } from '@quire/proto/content';
import { Role } from '@quire/policy';
import { rejects } from '@quire/service-kit/testing/expect';
import { stopAll } from '@quire/service-kit/testing';
import type { OrgsHarness, TestUser } from '@quire/orgs/testing';
import { SortOrder } from '@quire/proto/common';
import { startWithTeam, type ContentHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: ContentHarness;
let owner: TestUser, reader: TestUser, guest: TestUser, outsider: TestUser;
let orgId: string;
let open: Space;
let closed: Space;

beforeAll(async () => {
  ({ orgs, h, owner, reader, guest, outsider, orgId } = await startWithTeam({ reader: Role.ROLE_READ, guest: Role.ROLE_GUEST }));
  const create = (title: string) => h.createSpace(owner.id, { organizationId: orgId, title });
  open = await create('Open');
  closed = await create('Closed');
  // Nothing passes down to members from the org role: only admins reach it.
  await h.call(h.client.updateSpace, { spaceId: closed.id, defaultLevel: Role.ROLE_GUEST }, owner.id);
});
afterAll(() => stopAll(h, orgs));

const list = (userId: string, as: TestUser, extra: Partial<ListMemberSpacesRequest> = {}) =>
  h.call<ListMemberSpacesRequest, ListMemberSpacesResponse>(h.client.listMemberSpaces, { organizationId: orgId, userId, order: SortOrder.SORT_ORDER_UNSPECIFIED, ...extra }, as.id);

describe("a member's spaces", () => {
  it("lists the spaces the member reaches, with the member's role, newest first by default", async () => {
    const mine = await list(reader.id, owner);
    expect(mine.items.map((i) => [i.space!.id, i.permission])).toEqual([[open.id, Role.ROLE_READ]]);
    const admin = await list(owner.id, reader, { order: SortOrder.SORT_ORDER_ASC });
    // The owner reaches both as admin, but the reader asking sees only what the reader may see.
    expect(admin.items.map((i) => [i.space!.id, i.permission])).toEqual([[open.id, Role.ROLE_ADMIN]]);
    const all = await list(owner.id, owner, { order: SortOrder.SORT_ORDER_ASC });
    expect(all.items.map((i) => i.space!.id)).toEqual([open.id, closed.id]);
    const newest = await list(owner.id, owner, { page: { page: '', limit: 1 } });
    expect(newest.items.map((i) => i.space!.id)).toEqual([closed.id]);
    expect(newest.page?.next).toBeTruthy();
  });

  it('hides other organizations and non-members, and refuses guests', async () => {
    await rejects(list(reader.id, outsider), status.NOT_FOUND);
    await rejects(list(outsider.id, owner), status.NOT_FOUND, /Member/);
    await rejects(list(reader.id, guest), status.PERMISSION_DENIED);
    await rejects(list(reader.id, owner, { page: { page: '', limit: 1001 } }), status.INVALID_ARGUMENT, /limit/);
  });
});
