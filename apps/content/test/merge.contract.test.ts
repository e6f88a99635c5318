import { status } from '@grpc/grpc-js';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type {
  ApplyChangesRequest,
  ApplyChangesResponse,
  Change,
  GetChangeRequestMergeRequest,
  GetChangeRequestMergeResponse,
  MergeChangeRequestIntoSpaceRequest,
  MergeChangeRequestIntoSpaceResponse,
  MergeRevisionsRequest,
  MergeRevisionsResponse,
} from '@quire/proto/space-content';
import { unaryCall, type ServiceName } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { connectDb, stopAll, testIdentity } from '@quire/service-kit/testing';
import { rejects } from '@quire/service-kit/testing/expect';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContent, type ContentHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: ContentHarness;
let db: pg.Client;
let owner: TestUser, reader: TestUser, outsider: TestUser, editor: TestUser;
let orgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startContent(orgs.address);
  db = await connectDb(h.databaseUrl);
  ({ owner, reader, outsider, editor, orgId } = await team(orgs, { reader: Role.ROLE_READ, editor: Role.ROLE_EDIT }));
});
afterAll(() => stopAll(db, h, orgs));

const BODY = 'one\ntwo\nthree\nfour\nfive';
const apply = (spaceId: string, revisionId: string, changes: Change[]) =>
  h.callContent<ApplyChangesRequest, ApplyChangesResponse>(h.spaceContent.applyChanges, { spaceId, revisionId, changes }, owner.id);
const merge = (req: Omit<MergeRevisionsRequest, 'type'>, as = owner, type = '') =>
  h.callContent<MergeRevisionsRequest, MergeRevisionsResponse>(h.spaceContent.mergeRevisions, { ...req, type }, as.id);
const revisions = async () => Number((await db.query('SELECT count(*) FROM "Revision"')).rows[0].count);

/** A space whose base revision has page A (BODY) and B; `branch` edits it. */
async function setup() {
  const space = await h.call<CreateSpaceRequest, Space>(h.client.createSpace, { organizationId: orgId, title: 'S', emoji: '', editMode: '', visibility: '' }, owner.id);
  const r = await apply(space.id, space.revisionId, [
    { insertPage: { fields: { title: 'A' }, type: '', href: '', ref: 'a', markdown: BODY } },
    { insertPage: { fields: { title: 'B' }, type: '', href: '', ref: 'b' } },
  ]);
  const base = r.revision!.id;
  const id = (ref: string) => r.changes.find((c) => c.ref === ref)!.pageId;
  const branch = async (changes: Change[]) => (await apply(space.id, base, changes)).revision!.id;
  return { spaceId: space.id, base, a: id('a'), b: id('b'), branch };
}

describe('MergeRevisions', () => {
  it('merges edits of both sides into a new revision whose parents are ours and theirs', async () => {
    const s = await setup();
    const ours = await s.branch([{ updatePage: { page: s.a, markdown: BODY.replace('one', 'ONE'), move: false } }, { updatePage: { page: s.b, move: true, into: s.a } }]);
    const theirs = await s.branch([
      { updatePage: { page: s.a, markdown: BODY.replace('five', 'FIVE'), move: false } },
      { updatePage: { page: s.b, fields: { title: 'Bee' }, move: false } },
    ]);
    const m = await merge({ spaceId: s.spaceId, baseRevisionId: s.base, oursRevisionId: ours, theirsRevisionId: theirs }, owner, 'update');
    expect(m.conflicts).toEqual([]);
    expect(m.revision).toMatchObject({ parents: [ours, theirs], type: 'update' });
    expect(m.revision!.pages.map((p) => [p.title, p.pages.map((c) => c.title)])).toEqual([['A', ['Bee']]]);
    const page = await h.callContent(h.spaceContent.getPage, { spaceId: s.spaceId, revisionId: m.revision!.id, pageId: s.a, format: 'markdown', metadata: true }, owner.id);
    expect(page.markdown).toBe('ONE\ntwo\nthree\nfour\nFIVE');
  });

  it('answers the conflicts and writes nothing', async () => {
    const s = await setup();
    const ours = await s.branch([{ updatePage: { page: s.a, markdown: BODY.replace('one', 'uno'), move: false } }, { deletePage: { page: s.b } }]);
    const theirs = await s.branch([
      { updatePage: { page: s.a, markdown: BODY.replace('one', 'eins'), move: false } },
      { updatePage: { page: s.b, fields: { emoji: '🐝' }, move: false } },
    ]);
    const before = await revisions();
    const m = await merge({ spaceId: s.spaceId, baseRevisionId: s.base, oursRevisionId: ours, theirsRevisionId: theirs });
    expect(m.revision).toBeUndefined();
    expect(m.conflicts).toEqual([
      { pageId: s.a, title: 'A', reason: 'document' },
      { pageId: s.b, title: 'B', reason: 'deleted and edited' },
    ]);
    expect(await revisions()).toBe(before);
  });

  it('refuses unknown revisions, bad types and readers', async () => {
    const s = await setup();
    const req = { spaceId: s.spaceId, baseRevisionId: s.base, oursRevisionId: s.base, theirsRevisionId: 'nope' };
    await rejects(merge(req), status.NOT_FOUND, /theirsRevisionId: revision "nope"/);
    await rejects(merge({ ...req, theirsRevisionId: s.base }, owner, 'edits'), status.INVALID_ARGUMENT, /^type: must be one of merge, update/);
    await rejects(merge({ ...req, theirsRevisionId: s.base }, reader), status.PERMISSION_DENIED);
  });
});

describe('MergeChangeRequestIntoSpace', () => {
  /** As review calls it, for the user the gateway authenticated. */
  const mergeCr = (req: Partial<MergeChangeRequestIntoSpaceRequest>, as = owner, through: ServiceName = 'review') =>
    unaryCall<MergeChangeRequestIntoSpaceRequest, MergeChangeRequestIntoSpaceResponse>(
      h.spaceContent,
      h.spaceContent.mergeChangeRequestIntoSpace,
      { spaceId: '', baseRevisionId: '', headRevisionId: '', expectedRevisionId: '', changeRequestId: 'cr1', subject: '', ...req },
      { userId: as.id, requestId: 'test', chain: through === 'gateway' ? [] : ['gateway'] },
      { identity: testIdentity(through), audience: 'content' },
    );
  const mergeOf = (spaceId: string, changeRequestId: string, service: ServiceName = 'review') =>
    unaryCall<GetChangeRequestMergeRequest, GetChangeRequestMergeResponse>(
      h.spaceContent,
      h.spaceContent.getChangeRequestMerge,
      { spaceId, changeRequestId },
      { requestId: 'test' },
      { identity: testIdentity(service), audience: 'content' },
    );
  const spaceRevision = async (spaceId: string) => (await db.query('SELECT "revisionId" FROM "Space" WHERE id = $1', [spaceId])).rows[0].revisionId as string;

  /** `setup` with the space on the base revision and a change request's head editing page A. */
  async function live() {
    const s = await setup();
    await h.callContent(h.spaceContent.setSpaceRevision, { spaceId: s.spaceId, revisionId: s.base, expectedRevisionId: await spaceRevision(s.spaceId) }, owner.id);
    const head = await s.branch([{ updatePage: { page: s.a, markdown: BODY.replace('five', 'FIVE'), move: false } }]);
    return { ...s, head, req: { spaceId: s.spaceId, baseRevisionId: s.base, headRevisionId: head, expectedRevisionId: s.base } };
  }

  it('writes the merge revision and moves the space onto it together, once per change request', async () => {
    const s = await live();
    const res = await mergeCr({ ...s.req, changeRequestId: 'cr-happy' });
    expect(res.conflicts).toEqual([]);
    expect(res.revision).toMatchObject({ spaceId: s.spaceId, parents: [s.base, s.head], type: 'merge' });
    const id = res.revision!.id;
    expect(await spaceRevision(s.spaceId)).toBe(id);
    const page = await h.callContent(h.spaceContent.getPage, { spaceId: s.spaceId, revisionId: '', pageId: s.a, format: 'markdown', metadata: false }, owner.id);
    expect(page.markdown).toBe(BODY.replace('five', 'FIVE'));
    // Review finds it by the change request; a retry answers the same revision and writes nothing.
    expect(await mergeOf(s.spaceId, 'cr-happy')).toEqual({ revisionId: id });
    expect(await mergeOf(s.spaceId, 'cr-other')).toEqual({ revisionId: '' });
    const before = await revisions();
    expect((await mergeCr({ ...s.req, expectedRevisionId: id, changeRequestId: 'cr-happy' })).revision!.id).toBe(id);
    expect(await revisions()).toBe(before);
  });

  it('answers a conflict writing nothing and leaving the space where it was', async () => {
    const s = await live();
    const ours = await s.branch([{ updatePage: { page: s.a, markdown: BODY.replace('five', 'cinq'), move: false } }]);
    await h.callContent(h.spaceContent.setSpaceRevision, { spaceId: s.spaceId, revisionId: ours, expectedRevisionId: s.base }, owner.id);
    const before = await revisions();
    const res = await mergeCr({ ...s.req, expectedRevisionId: ours, changeRequestId: 'cr-conflict' });
    expect(res).toEqual({ conflicts: [{ pageId: s.a, title: 'A', reason: 'document' }] });
    expect(await revisions()).toBe(before);
    expect(await spaceRevision(s.spaceId)).toBe(ours);
    expect(await mergeOf(s.spaceId, 'cr-conflict')).toEqual({ revisionId: '' });
  });

  it("merges onto the space's revision as it reads it when no revision is expected (review's merge)", async () => {
    const s = await live();
    const moved = await s.branch([{ updatePage: { page: s.b, fields: { title: 'Bee' }, move: false } }]);
    await h.callContent(h.spaceContent.setSpaceRevision, { spaceId: s.spaceId, revisionId: moved, expectedRevisionId: s.base }, owner.id);
    const res = await mergeCr({ ...s.req, expectedRevisionId: '', changeRequestId: 'cr-unexpected' });
    expect(res.revision).toMatchObject({ parents: [moved, s.head], type: 'merge' });
    expect(await spaceRevision(s.spaceId)).toBe(res.revision!.id);
  });

  it('refuses a space no longer on the expected revision, writing nothing', async () => {
    const s = await live();
    const moved = await s.branch([{ updatePage: { page: s.b, fields: { title: 'Bee' }, move: false } }]);
    await h.callContent(h.spaceContent.setSpaceRevision, { spaceId: s.spaceId, revisionId: moved, expectedRevisionId: s.base }, owner.id);
    const before = await revisions();
    await rejects(mergeCr({ ...s.req, changeRequestId: 'cr-stale' }), status.ABORTED, /moved on to another revision/);
    expect(await revisions()).toBe(before);
    expect(await spaceRevision(s.spaceId)).toBe(moved);
  });

  it('refuses callers who may not merge in the space (readers, editors), a locked space and bad input, writing nothing', async () => {
    const s = await live();
    const before = await revisions();
    await rejects(mergeCr(s.req, reader), status.PERMISSION_DENIED, /merge permission/);
    await rejects(mergeCr(s.req, editor), status.PERMISSION_DENIED, /merge permission/);
    // The gateway (or any other service) may not name a change request as merged, even for an editor.
    await rejects(mergeCr(s.req, owner, 'gateway'), status.PERMISSION_DENIED, /Only the review service merges/);
    await rejects(mergeCr(s.req, owner, 'sites'), status.PERMISSION_DENIED);
    // Another organization's space is not there for them.
    await rejects(mergeCr(s.req, outsider), status.NOT_FOUND, /Space ".+" not found/);
    await rejects(mergeCr({ ...s.req, changeRequestId: '' }), status.INVALID_ARGUMENT, /^changeRequestId/);
    await rejects(mergeCr({ ...s.req, headRevisionId: 'nope' }), status.NOT_FOUND, /headRevisionId: revision "nope"/);
    // A locked space takes no merge, whoever asks (its `merge` permission is off).
    await db.query(`UPDATE "Space" SET "editMode" = 'locked' WHERE id = $1`, [s.spaceId]);
    await rejects(mergeCr(s.req), status.PERMISSION_DENIED, /merge permission/);
    expect(await revisions()).toBe(before);
    expect(await spaceRevision(s.spaceId)).toBe(s.base);
  });

  it('tells only review which revision a change request was merged as', async () => {
    const s = await live();
    await mergeCr({ ...s.req, changeRequestId: 'cr-asked' });
    await rejects(mergeOf(s.spaceId, 'cr-asked', 'gateway'), status.PERMISSION_DENIED, /Only the review service/);
    await rejects(mergeOf(s.spaceId, 'cr-asked', 'sites'), status.PERMISSION_DENIED);
  });
});
