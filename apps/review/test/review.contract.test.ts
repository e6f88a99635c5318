import { startContent, type ContentHarness } from '@quire/content/testing';
import { stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { Role, SortOrder } from '@quire/proto/common';
import { ContentServiceClient, type Space } from '@quire/proto/content';
import { ReviewServiceClient as R, type ChangeRequest } from '@quire/proto/review';
import { SpaceContentServiceClient as SC, type Change, type Page } from '@quire/proto/space-content';
import { status } from '@grpc/grpc-js';
import { pdfText } from '@quire/render/testing';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReview, type ReviewHarness } from './harness.ts';

let orgs: OrgsHarness;
let content: ContentHarness;
let review: ReviewHarness;
let owner: TestUser, editor: TestUser, commenter: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  review = await startReview(orgs.address, content.address);
  ({ owner, editor, commenter, reader, outsider, orgId } = await team(orgs, { editor: Role.ROLE_EDIT, commenter: Role.ROLE_COMMENT, reader: Role.ROLE_READ }));
});
afterAll(() => stopAll(review, content, orgs));

const call = <Req, Res>(m: (...a: never[]) => unknown, req: Req, as: TestUser = owner) => review.call<Req, Res>(m as never, req, as.id);
const createSpace = () =>
  content.call(ContentServiceClient.prototype.createSpace, { organizationId: orgId, title: 'Docs', emoji: '', editMode: '', visibility: '' }, owner.id) as Promise<Space>;
const getSpace = (spaceId: string) => content.call(ContentServiceClient.prototype.getSpace, { spaceId }, owner.id) as Promise<Space>;
const createCr = (spaceId: string, subject = 'Edit', as: TestUser = owner) =>
  call<unknown, ChangeRequest>(R.prototype.createChangeRequest, { spaceId, subject, agentTaskId: '' }, as);
const edit = (spaceId: string, cr: ChangeRequest, changes: Change[], as: TestUser = owner) =>
  call<unknown, ChangeRequest>(R.prototype.updateChangeRequestContent, { spaceId, changeRequest: cr.id, changes }, as);
const merge = (spaceId: string, cr: ChangeRequest, as: TestUser = owner) =>
  call<unknown, { revision: string; result: string }>(R.prototype.mergeChangeRequest, { spaceId, changeRequest: String(cr.number) }, as);
const get = (spaceId: string, ref: string) => call<unknown, ChangeRequest>(R.prototype.getChangeRequest, { spaceId, changeRequest: ref });
const insert = (title: string, markdown: string): Change => ({ insertPage: { fields: { title }, type: '', markdown, href: '', ref: '' } });
const update = (page: string, markdown: string): Change => ({ updatePage: { page, markdown, move: false } });
const pages = async (spaceId: string, revisionId = '') =>
  ((await content.callContent(SC.prototype.getRevision, { spaceId, revisionId, metadata: false, withMarkdown: true, withDocuments: false }, owner.id)) as { pages: Page[] }).pages;

/** A space whose content has the given pages (through a merged change request). */
async function spaceWith(...titles: string[]) {
  const space = await createSpace();
  const cr = await createCr(space.id, 'Seed');
  await edit(
    space.id,
    cr,
    titles.map((t) => insert(t, `# ${t}\n\nline one\n\nline two\n\nline three\n`)),
  );
  await merge(space.id, cr);
  const tree = await pages(space.id);
  return { space: await getSpace(space.id), pageId: (title: string) => tree.find((p) => p.title === title)!.id };
}

describe('change requests', () => {
  it('creates on the space revision with per-space numbers, also when created at once', async () => {
    const space = await createSpace();
    const first = await createCr(space.id, 'First');
    expect(first).toMatchObject({ number: 1, status: 'open', subject: 'First', revision: space.revisionId, revisionInitial: space.revisionId, outdated: false, comments: 0 });
    expect(first.createdBy).toMatchObject({ id: owner.id, email: owner.email });
    const more = await Promise.all(Array.from({ length: 6 }, (_, i) => createCr(space.id, `CR ${i}`, editor)));
    expect(more.map((c) => c.number).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
    expect((await get(space.id, '4')).subject).toMatch(/^CR /);
    expect((await get(space.id, first.id)).number).toBe(1);
    await rejects(get(space.id, '99'), status.NOT_FOUND, /Change request "99" not found/);
    await rejects(createCr(space.id, 'x'.repeat(101)), status.INVALID_ARGUMENT, /subject: must be at most 100/);
    await rejects(createCr(space.id, 'Nope', reader), status.PERMISSION_DENIED, /edit permission/);
    await rejects(createCr(space.id, 'Nope', outsider), status.NOT_FOUND);
  });

  it('lists by status (open by default) and contributor, page by page', async () => {
    const space = await createSpace();
    const [a, b] = [await createCr(space.id, 'A'), await createCr(space.id, 'B', editor)];
    await call(R.prototype.updateChangeRequest, { spaceId: space.id, changeRequest: a.id, status: 'draft' });
    const list = (q: object) =>
      call<unknown, { items: ChangeRequest[]; page?: { next?: string } }>(R.prototype.listChangeRequests, {
        spaceId: space.id,
        status: '',
        contributor: '',
        mergedRevisions: [],
        ...q,
      });
    expect((await list({})).items.map((c) => c.id)).toEqual([b.id]);
    expect((await list({ status: 'draft' })).items.map((c) => c.id)).toEqual([a.id]);
    expect((await list({ status: 'all', contributor: editor.id })).items.map((c) => c.id)).toEqual([b.id]);
    const firstPage = await list({ status: 'all', page: { page: '', limit: 1 } });
    expect(firstPage.items.map((c) => c.id)).toEqual([b.id]);
    expect((await list({ status: 'all', page: { page: firstPage.page!.next, limit: 1 } })).items.map((c) => c.id)).toEqual([a.id]);
    await rejects(list({ status: 'closed' }), status.INVALID_ARGUMENT, /status: must be one of/);
    // By the revisions their merges made (none yet here), bounded like a page.
    expect((await list({ status: 'all', mergedRevisions: ['nowhere', 'else'] })).items).toEqual([]);
    await rejects(list({ status: 'all', mergedRevisions: Array.from({ length: 1001 }, (_, i) => `r${i}`) }), status.INVALID_ARGUMENT, /mergedRevisions: at most 1000/);
  });

  it('moves between draft, open and archived, never by hand to merged', async () => {
    const space = await createSpace();
    const cr = await createCr(space.id);
    const patch = (q: object, as = owner) => call<unknown, ChangeRequest>(R.prototype.updateChangeRequest, { spaceId: space.id, changeRequest: cr.id, ...q }, as);
    expect(await patch({ status: 'archived', subject: 'Renamed' })).toMatchObject({ status: 'archived', subject: 'Renamed' });
    expect((await patch({ status: 'open' })).status).toBe('open');
    await rejects(patch({ status: 'merged' }), status.INVALID_ARGUMENT, /merging/);
    await rejects(patch({ status: 'nope' }), status.INVALID_ARGUMENT, /status/);
    await rejects(patch({ subject: 'x' }, reader), status.PERMISSION_DENIED);
  });
});

describe('authoring, merge and update', () => {
  it('applies a batch as one revision, refusing the whole batch for one bad change', async () => {
    const { space } = await spaceWith('Intro');
    const cr = await createCr(space.id);
    const edited = await edit(space.id, cr, [insert('Guide', '# Guide\n\nHello\n'), insert('FAQ', 'Q?')]);
    expect(edited.revision).not.toBe(cr.revision);
    expect((await pages(space.id, edited.revision)).map((p) => p.title)).toEqual(['Intro', 'Guide', 'FAQ']);
    await rejects(edit(space.id, edited, [insert('Ok', 'fine'), { deletePage: { page: 'missing' } }]), status.INVALID_ARGUMENT, /changes\[1\]/);
    expect((await get(space.id, cr.id)).revision).toBe(edited.revision);
    await rejects(
      edit(
        space.id,
        edited,
        Array.from({ length: 51 }, (_, i) => insert(`P${i}`, 'x')),
      ),
      status.INVALID_ARGUMENT,
      /changes: at most 50/,
    );
    await rejects(edit(space.id, edited, [insert('No', 'x')], reader), status.PERMISSION_DENIED);
  });

  it('merges cleanly into the space, once', async () => {
    const { space, pageId } = await spaceWith('Intro', 'Setup');
    const cr = await createCr(space.id);
    await edit(space.id, cr, [update(pageId('Setup'), '# Setup\n\nline one\n\nline two changed\n\nline three\n')]);
    const res = await merge(space.id, cr);
    expect(res.result).toBe('merge');
    expect((await getSpace(space.id)).revisionId).toBe(res.revision);
    expect(await get(space.id, cr.id)).toMatchObject({ status: 'merged', revisionMerged: res.revision, outdated: false });
    expect((await pages(space.id)).find((p) => p.title === 'Setup')!.markdown).toContain('line two changed');
    await rejects(merge(space.id, cr), status.FAILED_PRECONDITION, /#\d+ is merged: only an open change request can be merged/);
    await rejects(merge(space.id, await createCr(space.id), commenter), status.PERMISSION_DENIED, /merge permission/);
  });

  it('refuses a conflicting merge naming the page, changing nothing, and updates a change request from the space', async () => {
    const { space, pageId } = await spaceWith('Intro', 'Setup');
    const [a, b] = [await createCr(space.id, 'A'), await createCr(space.id, 'B')];
    await edit(space.id, a, [update(pageId('Setup'), '# Setup\n\nline one\n\nA wrote this\n\nline three\n')]);
    const bEdited = await edit(space.id, b, [update(pageId('Setup'), '# Setup\n\nline one\n\nB wrote that\n\nline three\n')]);
    await merge(space.id, a);
    const before = await getSpace(space.id);
    expect((await get(space.id, b.id)).outdated).toBe(true);
    await rejects(merge(space.id, b), status.ABORTED, /conflicts with the space's content on 1 page\(s\): "Setup"/);
    expect((await getSpace(space.id)).revisionId).toBe(before.revisionId);
    expect(await get(space.id, b.id)).toMatchObject({ status: 'open', revision: bEdited.revision });
    await rejects(call(R.prototype.updateChangeRequestFromSpace, { spaceId: space.id, changeRequest: b.id }), status.ABORTED, /Setup/);

    const c = await createCr(space.id, 'C');
    await edit(space.id, c, [update(pageId('Intro'), '# Intro\n\nline one\n\nline two\n\nline three\n\nC adds\n')]);
    const d = await createCr(space.id, 'D');
    await edit(space.id, d, [update(pageId('Setup'), '# Setup\n\nline one\n\nA wrote this\n\nline three\n\nD adds\n')]);
    await merge(space.id, d);
    const updated = await call<unknown, { revision: string; result: string }>(R.prototype.updateChangeRequestFromSpace, { spaceId: space.id, changeRequest: c.id });
    expect(updated.result).toBe('update');
    const after = await get(space.id, c.id);
    expect(after).toMatchObject({ revision: updated.revision, revisionMergedAncestor: (await getSpace(space.id)).revisionId, outdated: false });
    const crPages = await pages(space.id, updated.revision);
    expect(crPages.find((p) => p.title === 'Setup')!.markdown).toContain('D adds');
    expect(crPages.find((p) => p.title === 'Intro')!.markdown).toContain('C adds');
  });

  it('merges a page moved on one side and edited on the other; refuses one deleted on one side and edited on the other', async () => {
    const { space, pageId } = await spaceWith('Intro', 'Setup', 'Usage');
    const [mover, editorCr] = [await createCr(space.id, 'Move'), await createCr(space.id, 'Edit')];
    await edit(space.id, mover, [{ updatePage: { page: pageId('Setup'), move: true, into: pageId('Intro') } }]);
    await edit(space.id, editorCr, [update(pageId('Setup'), '# Setup\n\nline one\n\nedited while moved\n\nline three\n')]);
    await merge(space.id, mover);
    await merge(space.id, editorCr);
    const intro = (await pages(space.id)).find((p) => p.title === 'Intro')!;
    expect(intro.pages.map((p) => [p.title, p.markdown?.includes('edited while moved')])).toEqual([['Setup', true]]);

    const [deleter, editor2] = [await createCr(space.id, 'Delete'), await createCr(space.id, 'Edit usage')];
    await edit(space.id, deleter, [{ deletePage: { page: pageId('Usage') } }]);
    await edit(space.id, editor2, [update(pageId('Usage'), '# Usage\n\nstill needed\n')]);
    await merge(space.id, deleter);
    await rejects(merge(space.id, editor2), status.ABORTED, /"Usage" \([^)]+\): .*delete/);
  });

  it('lets one of two racing merges win and tells the other', async () => {
    const { space, pageId } = await spaceWith('Intro');
    const [a, b] = [await createCr(space.id, 'A'), await createCr(space.id, 'B')];
    await edit(space.id, a, [update(pageId('Intro'), '# Intro\n\nA\n')]);
    await edit(space.id, b, [update(pageId('Intro'), '# Intro\n\nB\n')]);
    const results = await Promise.allSettled([merge(space.id, a), merge(space.id, b)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: status.ABORTED });
  });
});

describe('comments, reviewers, reviews and counters', () => {
  it('posts, lists, resolves, reacts and replies with the permissions of each', async () => {
    const { space, pageId } = await spaceWith('Intro');
    const cr = await createCr(space.id);
    const post = (markdown: string, as: TestUser, extra: object = {}) =>
      call<unknown, { id: string; status: string; replies: number; page?: { title: string; outdated: boolean } }>(
        R.prototype.postComment,
        { spaceId: space.id, changeRequest: cr.id, markdown, nodeId: '', pageId: '', ...extra },
        as,
      );
    const first = await post('Looks good', commenter, { pageId: pageId('Intro') });
    expect(first.page).toMatchObject({ title: 'Intro', outdated: false });
    const second = await post('Typo here', editor);
    await rejects(post('No', reader), status.PERMISSION_DENIED, /comment permission/);
    await rejects(post('x', commenter, { pageId: 'nope' }), status.INVALID_ARGUMENT, /page: "nope"/);
    const put = (id: string, q: object, as: TestUser) =>
      call<unknown, { status: string; resolvedBy?: { id: string }; reactions: { emoji: string; users: unknown[] }[]; markdown: string }>(
        R.prototype.updateComment,
        { spaceId: space.id, changeRequest: cr.id, commentId: id, addedReactions: [], removedReactions: [], ...q },
        as,
      );
    expect(await put(first.id, { resolved: true }, editor)).toMatchObject({ status: 'resolved', resolvedBy: { id: editor.id } });
    await put(second.id, { addedReactions: ['👍'] }, owner);
    const reacted = await put(second.id, { addedReactions: ['👍', '🎉'] }, owner);
    expect(reacted.reactions.map((r) => [r.emoji, r.users.length])).toEqual([
      ['👍', 1],
      ['🎉', 1],
    ]);
    await rejects(put(second.id, { markdown: 'edited by someone else' }, owner), status.PERMISSION_DENIED, /author/);
    expect((await put(second.id, { markdown: 'Typo fixed?' }, editor)).markdown).toBe('Typo fixed?');

    const list = (q: object) =>
      call<unknown, { items: { id: string }[] }>(R.prototype.listComments, {
        spaceId: space.id,
        changeRequest: cr.id,
        status: '',
        targetPage: '',
        authors: [],
        order: SortOrder.SORT_ORDER_UNSPECIFIED,
        ...q,
      });
    expect((await list({})).items.map((c) => c.id)).toEqual([second.id, first.id]);
    expect((await list({ order: SortOrder.SORT_ORDER_ASC })).items.map((c) => c.id)).toEqual([first.id, second.id]);
    expect((await list({ status: 'open' })).items.map((c) => c.id)).toEqual([second.id]);
    expect((await list({ authors: [commenter.id] })).items.map((c) => c.id)).toEqual([first.id]);
    expect((await list({ targetPage: pageId('Intro') })).items.map((c) => c.id)).toEqual([first.id]);

    const reply = await call<unknown, { id: string }>(R.prototype.postReply, { spaceId: space.id, changeRequest: cr.id, commentId: second.id, markdown: 'Fixed' }, commenter);
    expect((await call<unknown, { replies: number }>(R.prototype.getComment, { spaceId: space.id, changeRequest: cr.id, commentId: second.id })).replies).toBe(1);
    await rejects(call(R.prototype.deleteReply, { spaceId: space.id, changeRequest: cr.id, commentId: second.id, replyId: reply.id }, editor), status.PERMISSION_DENIED);
    await call(R.prototype.deleteReply, { spaceId: space.id, changeRequest: cr.id, commentId: second.id, replyId: reply.id }, owner);
    await rejects(call(R.prototype.deleteComment, { spaceId: space.id, changeRequest: cr.id, commentId: first.id }, editor), status.PERMISSION_DENIED);
    await call(R.prototype.deleteComment, { spaceId: space.id, changeRequest: cr.id, commentId: first.id }, commenter);
    await rejects(call(R.prototype.getComment, { spaceId: space.id, changeRequest: cr.id, commentId: first.id }), status.NOT_FOUND);
    expect((await get(space.id, cr.id)).comments).toBe(1);
  });

  it('requests reviewers among members, takes reviews and counts per space in one call', async () => {
    const space = await createSpace();
    const cr = await createCr(space.id);
    const requested = await call<unknown, { users: { user: { id: string }; requestedBy: { id: string } }[] }>(R.prototype.requestReviewers, {
      spaceId: space.id,
      changeRequest: cr.id,
      userIds: [editor.id, owner.id],
      subject: 'Please review',
    });
    expect(requested.users.map((u) => u.user.id).sort()).toEqual([editor.id, owner.id].sort());
    expect((await get(space.id, cr.id)).subject).toBe('Please review');
    await rejects(call(R.prototype.requestReviewers, { spaceId: space.id, changeRequest: cr.id, userIds: [outsider.id] }), status.INVALID_ARGUMENT, /not a member/);
    await call(R.prototype.removeRequestedReviewer, { spaceId: space.id, changeRequest: cr.id, userId: owner.id });
    await rejects(call(R.prototype.removeRequestedReviewer, { spaceId: space.id, changeRequest: cr.id, userId: owner.id }), status.NOT_FOUND);

    await rejects(call(R.prototype.submitReview, { spaceId: space.id, changeRequest: cr.id, status: 'approved' }, editor), status.PERMISSION_DENIED, /review permission/);
    const first = await call<unknown, { status: string; comment?: { markdown: string } }>(R.prototype.submitReview, {
      spaceId: space.id,
      changeRequest: cr.id,
      status: 'changes-requested',
      comment: 'Fix the intro',
    });
    expect(first).toMatchObject({ status: 'changes-requested', comment: { markdown: 'Fix the intro' } });
    await call(R.prototype.submitReview, { spaceId: space.id, changeRequest: cr.id, status: 'approved' });
    const reviews = await call<unknown, { items: { status: string; outdated: boolean }[] }>(R.prototype.listReviews, { spaceId: space.id, changeRequest: cr.id });
    expect(reviews.items.map((r) => [r.status, r.outdated])).toEqual([
      ['changes-requested', true],
      ['approved', false],
    ]);
    await rejects(call(R.prototype.submitReview, { spaceId: space.id, changeRequest: cr.id, status: 'meh' }), status.INVALID_ARGUMENT, /status/);

    await createCr(space.id, 'Draft');
    await call(R.prototype.updateChangeRequest, { spaceId: space.id, changeRequest: '2', status: 'draft' });
    const counters = await call<unknown, { counters: object[] }>(R.prototype.batchGetSpaceCounters, { spaceIds: [space.id, 'unknown'] });
    // Four changes moved the space's counters, each raising their version: two change requests
    // created, a review with a comment, a status change (an approval without comment counts nothing).
    expect(counters.counters).toEqual([
      { spaceId: space.id, comments: 1, changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1, version: 4 },
      { spaceId: 'unknown', comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, version: 0 },
    ]);
  });
});

describe('PDF of a change request', () => {
  it('prints its pages in Chromium: every script reads back, one page alone, refusals as for a read', async () => {
    const space = await createSpace();
    const cr = await createCr(space.id, 'Translations');
    const lines = ['Getting started with Quire', 'Начало работы с Quire', '快速入门指南', 'البدء مع كوير'];
    await edit(space.id, cr, [
      insert('Latin', `${lines[0]}\n\n| a | b |\n| --- | --- |\n| ${lines[1]} | ${lines[2]} |\n`),
      insert('Кириллица', lines[1]!),
      insert('中文', lines[2]!),
      insert('العربية', lines[3]!),
    ]);
    // Printing in Chromium within the gateway's deadline for review (60 s), not a test call's 10 s.
    const pdf = await review.callLong<unknown, { pdf: Uint8Array; filename: string }>(
      R.prototype.renderChangeRequestPdf as never,
      { spaceId: space.id, changeRequest: cr.id, pageId: '' },
      reader.id,
    );
    expect(pdf.filename).toBe(`change-request-${cr.number}.pdf`);
    const text = pdfText(pdf.pdf);
    for (const title of ['Latin', 'Кириллица', '中文', 'العربية']) expect(text).toContain(title);
    for (const line of lines) expect(text).toContain(line);

    const tree = await pages(space.id, (await get(space.id, cr.id)).revision);
    const one = await call<unknown, { pdf: Uint8Array; filename: string }>(R.prototype.renderChangeRequestPdf, {
      spaceId: space.id,
      changeRequest: cr.id,
      pageId: tree.find((p) => p.title === '中文')!.id,
    });
    expect(pdfText(one.pdf)).toContain(lines[2]);
    expect(pdfText(one.pdf)).not.toContain(lines[0]);
    await rejects(call(R.prototype.renderChangeRequestPdf, { spaceId: space.id, changeRequest: cr.id, pageId: 'missing' }), status.NOT_FOUND, /page/);
    await rejects(call(R.prototype.renderChangeRequestPdf, { spaceId: space.id, changeRequest: cr.id, pageId: '' }, outsider), status.NOT_FOUND);
  }, 60_000);
});
