import { status } from '@grpc/grpc-js';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { ApplyChangesRequest, ApplyChangesResponse, Change, MergeRevisionsRequest, MergeRevisionsResponse } from '@quire/proto/space-content';
import { Role } from '@quire/service-kit';
import { rejects } from '@quire/service-kit/testing/expect';
import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContent, type ContentHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: ContentHarness;
let db: pg.Client;
let owner: TestUser;
let reader: TestUser;
let orgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startContent(orgs.address);
  db = new pg.Client({ connectionString: h.databaseUrl });
  await db.connect();
  [owner, reader] = await Promise.all([orgs.user('owner'), orgs.user('reader')]);
  orgId = (await orgs.organization(owner, [[reader, Role.ROLE_READ]])).id;
});
afterAll(async () => {
  await db?.end();
  await h?.stop();
  await orgs?.stop();
});

const BODY = 'one\ntwo\nthree\nfour\nfive';
const apply = (spaceId: string, revisionId: string, changes: Change[]) =>
  h.callContent<ApplyChangesRequest, ApplyChangesResponse>(h.spaceContent.applyChanges, { spaceId, revisionId, changes }, owner.id);
const merge = (req: Omit<MergeRevisionsRequest, 'type'>, as = owner, type = '') => h.callContent<MergeRevisionsRequest, MergeRevisionsResponse>(h.spaceContent.mergeRevisions, { ...req, type }, as.id);
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
    const theirs = await s.branch([{ updatePage: { page: s.a, markdown: BODY.replace('five', 'FIVE'), move: false } }, { updatePage: { page: s.b, fields: { title: 'Bee' }, move: false } }]);
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
    const theirs = await s.branch([{ updatePage: { page: s.a, markdown: BODY.replace('one', 'eins'), move: false } }, { updatePage: { page: s.b, fields: { emoji: '🐝' }, move: false } }]);
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
