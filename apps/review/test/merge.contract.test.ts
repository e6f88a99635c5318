import { startContent } from '@quire/content/testing';
import { stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { ContentServiceClient, type Space } from '@quire/proto/content';
import { ReviewServiceClient as R, type ChangeRequest, type GetChangeRequestRevisionResponse } from '@quire/proto/review';
import { SpaceContentServiceClient as SC, type Change, type Page } from '@quire/proto/space-content';
import { status } from '@grpc/grpc-js';
import { createLogger } from '@quire/service-kit';
import { Role } from '@quire/proto/common';
import { rejects } from '@quire/service-kit/testing/expect';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settleMerges } from '../src/rpc/merges.ts';
import { startReview } from './harness.ts';

// Merges through content's one call, and a merge review did not see end: review stops after
// content merged and before recording it (simulated by its write failing once). The change
// request ends merged from content's event, on the next read, or at the next start.

let orgs: OrgsHarness;
let owner: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string;

/** Content and review, with or without content's events reaching review. */
async function stack(events: boolean) {
  const wiring = events ? { eventsPrefix: orgs.config.EVENTS_SUBJECT_PREFIX, eventsStream: orgs.config.EVENTS_STREAM } : {};
  const content = await startContent(orgs.address, wiring);
  const review = await startReview(orgs.address, content.address, undefined, wiring);
  const db = new pg.Client({ connectionString: review.databaseUrl });
  await db.connect();
  const call = <Res>(m: (...a: never[]) => unknown, req: object, as: TestUser = owner) => review.call<object, Res>(m as never, req, as.id);
  const getSpace = async (spaceId: string) => (await content.call(ContentServiceClient.prototype.getSpace, { spaceId }, owner.id)) as Space;
  const createCr = (spaceId: string) => call<ChangeRequest>(R.prototype.createChangeRequest, { spaceId, subject: 'Edit', agentTaskId: '' });
  const edit = (spaceId: string, cr: ChangeRequest, changes: Change[]) => call<ChangeRequest>(R.prototype.updateChangeRequestContent, { spaceId, changeRequest: cr.id, changes });
  const merge = (spaceId: string, cr: ChangeRequest, as = owner) =>
    call<{ revision: string; result: string }>(R.prototype.mergeChangeRequest, { spaceId, changeRequest: String(cr.number) }, as);
  const get = (spaceId: string, cr: ChangeRequest) => call<ChangeRequest>(R.prototype.getChangeRequest, { spaceId, changeRequest: cr.id });
  const row = async (cr: ChangeRequest) =>
    (
      await db.query<{ status: string; revision_merged: string | null; merge_started_at: Date | null }>(
        'SELECT status, revision_merged, merge_started_at FROM change_request WHERE id = $1',
        [cr.id],
      )
    ).rows[0]!;
  const pages = async (spaceId: string) =>
    ((await content.callContent(SC.prototype.getRevision, { spaceId, revisionId: '', metadata: false, withMarkdown: true, withDocuments: false }, owner.id)) as { pages: Page[] })
      .pages;

  /** A space with page "Intro" and an open change request editing it. */
  async function editedSpace() {
    const space: Space = await content.call(
      ContentServiceClient.prototype.createSpace,
      { organizationId: orgId, title: 'Docs', emoji: '', editMode: '', visibility: '' },
      owner.id,
    );
    const seed = await createCr(space.id);
    await edit(space.id, seed, [{ insertPage: { fields: { title: 'Intro' }, type: '', markdown: '# Intro\n\none\n', href: '', ref: '' } }]);
    await merge(space.id, seed);
    const intro = (await pages(space.id))[0]!.id;
    const cr = await edit(space.id, await createCr(space.id), [{ updatePage: { page: intro, markdown: '# Intro\n\none, edited\n', move: false } }]);
    return { space: await getSpace(space.id), cr, intro };
  }

  /**
   * Merges stop after content's answer, before review records them, as a stopped process would,
   * until the answer (the event's delivery fails meanwhile too, and comes again later).
   */
  async function mergeStopped(spaceId: string, cr: ChangeRequest) {
    const store = review.deps.store;
    const recordMerged = store.recordMerged;
    store.recordMerged = () => Promise.reject(new Error('review stopped'));
    try {
      await rejects(merge(spaceId, cr), status.INTERNAL);
    } finally {
      store.recordMerged = recordMerged;
    }
  }

  return {
    content,
    review,
    call,
    getSpace,
    createCr,
    edit,
    merge,
    get,
    row,
    pages,
    editedSpace,
    mergeStopped,
    db,
    async stop() {
      await db.end();
      await review.stop();
      await content.stop();
    },
  };
}

let withEvents: Awaited<ReturnType<typeof stack>>;
let withoutEvents: Awaited<ReturnType<typeof stack>>;

beforeAll(async () => {
  orgs = await startOrgs();
  ({ owner, reader, outsider, orgId } = await team(orgs, { reader: Role.ROLE_READ }));
  [withEvents, withoutEvents] = await Promise.all([stack(true), stack(false)]);
});
afterAll(() => stopAll(withEvents, withoutEvents, orgs));

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  for (const until = Date.now() + ms; ;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What `run` answers, and the calls review made to content meanwhile (each still goes through). */
async function withContentCalls<T>(s: Awaited<ReturnType<typeof stack>>, run: () => Promise<T>): Promise<{ answer: T; calls: string[] }> {
  const clients = [s.review.deps.content, s.review.deps.spaceContent] as unknown as Record<string, (...a: unknown[]) => unknown>[];
  const spies = clients.flatMap((client) => Object.keys(client).map((name) => ({ name, spy: vi.spyOn(client, name) })));
  try {
    const answer = await run();
    return { answer, calls: spies.flatMap(({ name, spy }) => spy.mock.calls.map(() => name)) };
  } finally {
    for (const { spy } of spies) spy.mockRestore();
  }
}

describe('merging a change request', () => {
  it('moves the space onto the merge revision in one call to content and records the change request merged, with its counters', async () => {
    const s = withEvents;
    const { space, cr } = await s.editedSpace();
    const { answer: res, calls } = await withContentCalls(s, () => s.merge(space.id, cr));
    expect(calls).toEqual(['mergeChangeRequestIntoSpace']);
    const after = await s.getSpace(space.id);
    expect(after.revisionId).toBe(res.revision);
    expect(await s.row(cr)).toEqual({ status: 'merged', revision_merged: res.revision, merge_started_at: null });
    // Content's copy of the counters follows from review's state event.
    expect(
      await eventually(
        async () => (await s.getSpace(space.id)).counters?.changeRequestsOpen,
        (open) => open === 0,
      ),
    ).toBe(0);
    const revision: { pages: Page[] } = await s.content.callContent(
      SC.prototype.getRevision,
      { spaceId: space.id, revisionId: res.revision, metadata: false, withMarkdown: true, withDocuments: false },
      owner.id,
    );
    expect(revision).toMatchObject({ type: 'merge', parents: [space.revisionId, cr.revision] });
    expect(revision.pages[0]!.markdown).toContain('one, edited');
  });

  it('changes nothing on either side when refused: a conflict, a space that moved, a reader', async () => {
    const s = withoutEvents;
    const { space, cr, intro } = await s.editedSpace();
    const other = await s.createCr(space.id);
    await s.edit(space.id, other, [{ updatePage: { page: intro, markdown: '# Intro\n\none, otherwise\n', move: false } }]);
    await s.merge(space.id, other);
    const moved = (await s.getSpace(space.id)).revisionId;
    await rejects(s.merge(space.id, cr), status.ABORTED, /conflicts with the space's content on 1 page\(s\): "Intro"/);
    await rejects(s.merge(space.id, cr, reader), status.PERMISSION_DENIED, /merge permission/);
    await rejects(s.merge(space.id, cr, outsider), status.NOT_FOUND, /not found/);
    expect((await s.getSpace(space.id)).revisionId).toBe(moved);
    expect(await s.row(cr)).toEqual({ status: 'open', revision_merged: null, merge_started_at: null });
  });

  it('says nothing of a change request to who may not merge in its space', async () => {
    const s = withoutEvents;
    const { space, cr } = await s.editedSpace();
    // Not there, merged, under way: each told only to who may merge; a reader is refused, another organization's user finds nothing.
    for (const [as, code] of [
      [reader, status.PERMISSION_DENIED],
      [outsider, status.NOT_FOUND],
    ] as const)
      await rejects(s.merge(space.id, { ...cr, number: 999 }, as), code, code === status.NOT_FOUND ? /Space .* not found/ : /merge permission/);
    await rejects(s.merge(space.id, { ...cr, number: 999 }), status.NOT_FOUND, /Change request "999" not found/);
    await s.db.query(`UPDATE change_request SET merge_started_at = now() AT TIME ZONE 'UTC' WHERE id = $1`, [cr.id]);
    await rejects(s.merge(space.id, cr, outsider), status.NOT_FOUND, /Space .* not found/);
    await rejects(s.merge(space.id, cr, reader), status.PERMISSION_DENIED, /merge permission/);
    await rejects(s.merge(space.id, cr), status.ABORTED, /being merged/);
    await s.db.query(`UPDATE change_request SET merge_started_at = NULL WHERE id = $1`, [cr.id]);
    await s.merge(space.id, cr);
    await rejects(s.merge(space.id, cr, outsider), status.NOT_FOUND, /Space .* not found/);
    await rejects(s.merge(space.id, cr), status.FAILED_PRECONDITION, /is merged/);
  });

  it('refuses a second merge while one is under way', async () => {
    const s = withoutEvents;
    const { space, cr } = await s.editedSpace();
    await s.db.query(`UPDATE change_request SET merge_started_at = now() AT TIME ZONE 'UTC' WHERE id = $1`, [cr.id]);
    await rejects(s.merge(space.id, cr), status.ABORTED, /being merged/);
    expect((await s.getSpace(space.id)).revisionId).toBe(space.revisionId);
    // One left by a stop long ago that content never merged: cleared on read, and the merge goes through.
    await s.db.query(`UPDATE change_request SET merge_started_at = (now() AT TIME ZONE 'UTC') - interval '2 minutes' WHERE id = $1`, [cr.id]);
    expect((await s.get(space.id, cr)).status).toBe('open');
    expect((await s.row(cr)).merge_started_at).toBeNull();
    expect((await s.merge(space.id, cr)).result).toBe('merge');
  });
});

describe('a merge review did not see end', () => {
  it("is recorded from content's merged event", async () => {
    const s = withEvents;
    const { space, cr } = await s.editedSpace();
    await s.mergeStopped(space.id, cr);
    const moved = (await s.getSpace(space.id)).revisionId;
    expect(moved).not.toBe(space.revisionId);
    // Read from the database, not through GetChangeRequest (which settles it too).
    const row = await eventually(
      () => s.row(cr),
      (r) => r.status === 'merged',
    );
    expect(row).toEqual({ status: 'merged', revision_merged: moved, merge_started_at: null });
    expect(
      await eventually(
        async () => (await s.getSpace(space.id)).counters?.changeRequestsOpen,
        (open) => open === 0,
      ),
    ).toBe(0);
  });

  it('is recorded when the change request is next read, without the event', async () => {
    const s = withoutEvents;
    const { space, cr } = await s.editedSpace();
    await s.mergeStopped(space.id, cr);
    const moved = (await s.getSpace(space.id)).revisionId;
    expect(await s.row(cr)).toMatchObject({ status: 'open', revision_merged: null });
    expect(await s.get(space.id, cr)).toMatchObject({ status: 'merged', revisionMerged: moved });
    // Merging it again is refused as merged; the space stays where the merge put it.
    await rejects(s.merge(space.id, cr), status.FAILED_PRECONDITION, /is merged/);
    expect((await s.getSpace(space.id)).revisionId).toBe(moved);
  });

  it('is recorded at the next start, without the event', async () => {
    const s = withoutEvents;
    const { space, cr } = await s.editedSpace();
    await s.mergeStopped(space.id, cr);
    const moved = (await s.getSpace(space.id)).revisionId;
    expect(await settleMerges(s.review.deps, createLogger('review-test', 'silent'))).toBe(1);
    expect(await s.row(cr)).toEqual({ status: 'merged', revision_merged: moved, merge_started_at: null });
    expect(await settleMerges(s.review.deps, createLogger('review-test', 'silent'))).toBe(0);
  });
});

describe('reading a change request for its content', () => {
  it('answers its revision and base only, to those who can see the space', async () => {
    const s = withoutEvents;
    const { space, cr } = await s.editedSpace();
    const edited = await s.get(space.id, cr);
    expect(await s.call<GetChangeRequestRevisionResponse>(R.prototype.getChangeRequestRevision, { spaceId: space.id, changeRequest: String(cr.number) }, reader)).toEqual({
      spaceId: space.id,
      revision: edited.revision,
      baseRevision: edited.revisionInitial,
    });
    await rejects(s.call(R.prototype.getChangeRequestRevision, { spaceId: space.id, changeRequest: '999' }), status.NOT_FOUND, /Change request "999" not found/);
    // Another organization's change request is not there for them.
    await rejects(s.call(R.prototype.getChangeRequestRevision, { spaceId: space.id, changeRequest: cr.id }, outsider), status.NOT_FOUND, /not found/);
  });
});
