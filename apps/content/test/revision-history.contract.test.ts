import { status } from '@grpc/grpc-js';
import type {
  Change,
  CreateRevisionRequest,
  MergeRevisionsRequest,
  MergeRevisionsResponse,
  PutBlobsRequest,
  PutBlobsResponse,
  Revision,
  ReusableContent,
  GetReusableContentRequest,
} from '@quire/proto/space-content';
import { rejects } from '@quire/service-kit/testing/expect';
import type { TestUser } from '@quire/orgs/testing';
import { describe, expect, it } from 'vitest';
import { documentId } from '../src/domain/changes.ts';
import { MAX_REDIRECTS } from '../src/domain/redirects.ts';
import { MAX_REUSABLE_CONTENTS } from '../src/domain/reusable.ts';
import {
  h,
  db,
  owner,
  editor,
  reader,
  outsider,
  otherOrgId,
  sc,
  createSpace,
  apply,
  getRevision,
  setRevision,
  insert,
  count,
  PNG,
  seeded,
  useRevisionsEnv,
} from './revisions-env.ts';

useRevisionsEnv();

/**
 * The `key` list an import (`req`) set on `imported` stays on what is made on it (an edit, a merge
 * of the edit, an import without the list); an import with an empty list clears it.
 */
async function expectCarried(key: 'redirects' | 'reusableContents', req: CreateRevisionRequest, imported: Revision, edit: Change, kept: unknown[]) {
  const { spaceId } = req;
  const edited = (await apply(spaceId, imported.id, [edit])).revision!;
  expect((await getRevision(spaceId, edited.id))[key]).toEqual(kept);
  const merged = await h.callContent<MergeRevisionsRequest, MergeRevisionsResponse>(
    sc().mergeRevisions,
    { spaceId, baseRevisionId: imported.id, oursRevisionId: imported.id, theirsRevisionId: edited.id, type: '' },
    editor.id,
  );
  expect(merged.revision![key]).toEqual(kept);
  const again = await h.callContent<CreateRevisionRequest, Revision>(sc().createRevision, { ...req, parentRevisionId: imported.id, [key]: undefined }, editor.id);
  expect((await getRevision(spaceId, again.id))[key]).toEqual(kept);
  const cleared = await h.callContent<CreateRevisionRequest, Revision>(sc().createRevision, { ...req, parentRevisionId: again.id, [key]: { items: [] } }, editor.id);
  expect((await getRevision(spaceId, cleared.id))[key]).toEqual([]);
}

describe('SetSpaceRevision and CreateRevision', () => {
  it('moves the space by compare-and-set: of two racing moves from one revision, one wins', async () => {
    const s = await seeded();
    const [x, y] = await Promise.all([apply(s.space.id, s.revision.id, [insert('X')]), apply(s.space.id, s.revision.id, [insert('Y')])]);
    const results = await Promise.allSettled([setRevision(s.space.id, x.revision!.id, s.revision.id), setRevision(s.space.id, y.revision!.id, s.revision.id)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toMatchObject({ code: status.ABORTED, details: expect.stringMatching(/moved on/) });
    const active = (await getRevision(s.space.id)).id;
    expect([x.revision!.id, y.revision!.id]).toContain(active);
  });

  it('keeps search’s pages in step with the active revision, duplicates included', async () => {
    const s = await seeded();
    const pages = async (spaceId: string) => (await db.query('SELECT "pageId", path FROM "SpacePage" WHERE "spaceId" = $1 ORDER BY path', [spaceId])).rows;
    expect(await pages(s.space.id)).toEqual([
      { pageId: s.faq, path: 'faq' },
      { pageId: s.intro, path: 'intro' },
      { pageId: s.setup, path: 'intro/setup' },
    ]);
    const r = await apply(s.space.id, s.revision.id, [{ deletePage: { page: s.intro } }]);
    await setRevision(s.space.id, r.revision!.id, s.revision.id);
    expect(await pages(s.space.id)).toEqual([{ pageId: s.faq, path: 'faq' }]);
    const copy = await h.call(h.client.duplicateSpace, { spaceId: s.space.id }, owner.id);
    expect(await pages(copy.id)).toEqual([{ pageId: s.faq, path: 'faq' }]);
  });

  it('refuses readers, unknown revisions and revisions of other spaces', async () => {
    const s = await seeded();
    const other = await seeded();
    await rejects(setRevision(s.space.id, s.revision.id, s.revision.id, reader), status.PERMISSION_DENIED);
    await rejects(setRevision(s.space.id, 'nope', s.revision.id), status.NOT_FOUND);
    await rejects(setRevision(s.space.id, other.revision.id, s.revision.id), status.NOT_FOUND);
    await rejects(setRevision(s.space.id, s.revision.id, ''), status.INVALID_ARGUMENT, /expectedRevisionId/);
  });

  it('creates a revision from whole content, keeping given ids, files by blob; set_active moves the space', async () => {
    const s = await createSpace();
    const { blob } = (await h.callContent<PutBlobsRequest, PutBlobsResponse>(sc().putBlobs, { data: [PNG] }, editor.id)).blobs[0]!;
    const req: CreateRevisionRequest = {
      spaceId: s.id,
      parentRevisionId: '',
      pages: [
        { id: 'g1', type: 'group', fields: { title: 'Guides' }, markdown: '', href: '', pages: [{ id: 'p1', type: '', markdown: '# Start\nGo', href: '', pages: [] }] },
        { id: 'l1', type: 'link', fields: { title: 'Site' }, markdown: '', href: 'https://example.org', pages: [] },
      ],
      files: [{ id: 'f1', name: 'a.png', contentType: 'image/png', blob }],
      setActive: true,
      type: '',
    };
    const r = await h.callContent<CreateRevisionRequest, Revision>(sc().createRevision, req, editor.id);
    expect(r.parents).toEqual([s.revisionId]);
    // The answer is the revision's header; GetRevision reads what it holds (the space's active one now).
    expect([r.pages, r.files]).toEqual([[], []]);
    const made: Revision = await getRevision(s.id);
    expect(made.id).toBe(r.id);
    expect(made.pages.map((p) => [p.id, p.type, p.path, p.pages.map((c) => c.path)])).toEqual([
      ['g1', 'group', 'guides', ['guides/start']],
      ['l1', 'link', 'site', []],
    ]);
    expect(made.files[0]).toMatchObject({ id: 'f1', size: PNG.byteLength, dimensions: { width: 2, height: 3 } });
    // The space moved on: the same parent again loses.
    await rejects(h.callContent(sc().createRevision, { ...req, parentRevisionId: s.revisionId }, editor.id), status.ABORTED);
    await rejects(
      h.callContent(sc().createRevision, { ...req, files: [{ id: 'f1', name: 'a', contentType: '', blob: 'f'.repeat(64) }] }, editor.id),
      status.INVALID_ARGUMENT,
      /files\[0\]\.blob/,
    );
    await rejects(h.callContent(sc().createRevision, { ...req, type: 'weird' }, editor.id), status.INVALID_ARGUMENT, /^type:/);
    await rejects(h.callContent(sc().createRevision, req, reader.id), status.PERMISSION_DENIED);
  });

  it("keeps a Git import's redirects with its revision and every revision made on it, until an import replaces them", async () => {
    const s = await createSpace();
    const page = (id: string, title: string) => ({ id, type: '', fields: { title }, markdown: `# ${title}`, href: '', pages: [] });
    const req: CreateRevisionRequest = {
      spaceId: s.id,
      parentRevisionId: '',
      pages: [page('p1', 'Start'), page('p2', 'Install')],
      files: [],
      setActive: true,
      type: '',
      redirects: {
        items: [
          { path: '/old/setup/', pageId: 'p2', anchor: '#linux' },
          { path: 'help', pageId: 'p1', anchor: '' },
        ],
      },
    };
    const imported = await h.callContent<CreateRevisionRequest, Revision>(sc().createRevision, req, editor.id);
    const kept = [
      { path: 'old/setup', pageId: 'p2', anchor: 'linux' },
      { path: 'help', pageId: 'p1', anchor: '' },
    ];
    expect((await getRevision(s.id)).redirects).toEqual(kept);
    // An edit, a merge of it and a revision made without them (another import kind) carry them; an import's empty list removes them.
    await expectCarried('redirects', req, imported, { updatePage: { page: 'p1', fields: { title: 'Begin' }, move: false, markdown: '# Begin' } }, kept);
    // Bad redirects are refused, naming the one.
    const bad = (item: { path: string; pageId: string; anchor: string }) =>
      h.callContent(sc().createRevision, { ...req, parentRevisionId: '', setActive: false, redirects: { items: [item] } }, editor.id);
    await rejects(bad({ path: 'x', pageId: 'nope', anchor: '' }), status.INVALID_ARGUMENT, /redirects\.items\[0\]\.pageId: no page "nope"/);
    await rejects(bad({ path: '../x', pageId: 'p1', anchor: '' }), status.INVALID_ARGUMENT, /redirects\.items\[0\]\.path/);
    await rejects(bad({ path: '/', pageId: 'p1', anchor: '' }), status.INVALID_ARGUMENT, /redirects\.items\[0\]\.path/);
    await rejects(bad({ path: 'a\nb', pageId: 'p1', anchor: '' }), status.INVALID_ARGUMENT, /redirects\.items\[0\]\.path/);
    await rejects(
      h.callContent(
        sc().createRevision,
        {
          ...req,
          setActive: false,
          redirects: {
            items: [
              { path: 'a', pageId: 'p1', anchor: '' },
              { path: '/a', pageId: 'p2', anchor: '' },
            ],
          },
        },
        editor.id,
      ),
      status.INVALID_ARGUMENT,
      /redirects\.items\[1\]\.path: "a" is redirected twice/,
    );
    const many = Array.from({ length: MAX_REDIRECTS + 1 }, (_, i) => ({ path: `old/${i}`, pageId: 'p1', anchor: '' }));
    await rejects(h.callContent(sc().createRevision, { ...req, setActive: false, redirects: { items: many } }, editor.id), status.INVALID_ARGUMENT, /redirects: at most/);
  });

  it("keeps a Git import's reusable contents (title, document, Git file) with its revision and every revision made on it; reads one by id", async () => {
    const s = await createSpace();
    const req: CreateRevisionRequest = {
      spaceId: s.id,
      parentRevisionId: '',
      pages: [{ id: 'p1', type: '', fields: { title: 'Start' }, markdown: 'Intro.\n\n{% include "rc1" %}\n', href: '', pages: [] }],
      files: [],
      setActive: true,
      type: '',
      reusableContents: {
        items: [
          {
            id: 'rc1',
            title: 'Setup steps',
            documentId: '',
            markdown: '1. Download\n\n{% include "rc2" %}\n',
            git: { oid: 'a'.repeat(40), path: 'docs/.gitbook/includes/setup.md' },
          },
          { id: 'rc2', title: 'Footer', documentId: '', markdown: 'Footer.\n' },
        ],
      },
    };
    const imported = await h.callContent<CreateRevisionRequest, Revision>(sc().createRevision, req, editor.id);
    const rc1 = {
      id: 'rc1',
      title: 'Setup steps',
      documentId: documentId('1. Download\n\n{% include "rc2" %}\n'),
      markdown: '',
      git: { oid: 'a'.repeat(40), path: 'docs/.gitbook/includes/setup.md' },
    };
    const importedContents = (await getRevision(s.id, imported.id)).reusableContents;
    expect(importedContents).toEqual([rc1, { id: 'rc2', title: 'Footer', documentId: documentId('Footer.\n'), markdown: '' }]);
    // With markdown when asked; git metadata only with metadata.
    const read = (extra: Record<string, unknown>, as: TestUser = reader) =>
      h.callContent<GetReusableContentRequest, ReusableContent>(
        sc().getReusableContent,
        { spaceId: s.id, revisionId: '', reusableContentId: 'rc1', metadata: true, ...extra },
        as.id,
      );
    expect(await read({})).toEqual({ ...rc1, markdown: '1. Download\n\n{% include "rc2" %}\n' });
    expect((await read({ metadata: false })).git).toBeUndefined();
    expect((await getRevision(s.id, '', reader, { withMarkdown: true, withDocuments: false })).reusableContents.map((c: ReusableContent) => c.markdown)).toEqual([
      '1. Download\n\n{% include "rc2" %}\n',
      'Footer.\n',
    ]);
    // Its document is the space's: GetDocument reads it.
    expect(await h.callContent(sc().getDocument, { spaceId: s.id, documentId: rc1.documentId }, reader.id)).toMatchObject({ markdown: '1. Download\n\n{% include "rc2" %}\n' });
    // Unknown ids and another organization's space answer NOT_FOUND.
    await rejects(read({ reusableContentId: 'nope' }), status.NOT_FOUND, /Reusable content "nope" not found/);
    await rejects(read({}, outsider), status.NOT_FOUND, /Space/);
    const foreign = await createSpace(otherOrgId, outsider);
    await rejects(read({ spaceId: foreign.id }), status.NOT_FOUND, /Space/);
    // An edit, a merge and an import without them carry them; an import's list replaces them.
    await expectCarried('reusableContents', req, imported, { updatePage: { page: 'p1', fields: { title: 'Begin' }, move: false } }, importedContents);
    // Bad ones are refused, naming the one; the bound is checked before anything is written.
    const bad = (items: ReusableContent[]) => h.callContent(sc().createRevision, { ...req, setActive: false, reusableContents: { items } }, editor.id);
    const one = { id: 'x', title: 'X', documentId: '', markdown: '' };
    await rejects(bad([one, { ...one }]), status.INVALID_ARGUMENT, /reusableContents\.items\[1\]\.id: "x" is used twice/);
    await rejects(bad([{ ...one, id: '../x' }]), status.INVALID_ARGUMENT, /reusableContents\.items\[0\]\.id/);
    await rejects(bad([{ ...one, title: '' }]), status.INVALID_ARGUMENT, /reusableContents\.items\[0\]\.title/);
    await rejects(bad([{ ...one, markdown: 'x'.repeat(1_000_001) }]), status.INVALID_ARGUMENT, /reusableContents\.items\[0\]\.markdown/);
    const revisions = await count('Revision');
    await rejects(bad(Array.from({ length: MAX_REUSABLE_CONTENTS + 1 }, (_, i) => ({ ...one, id: `r${i}` }))), status.INVALID_ARGUMENT, /reusableContents: at most/);
    expect(await count('Revision')).toBe(revisions);
  });
});

describe('GetSemanticChanges', () => {
  const changes = (spaceId: string, revisionId: string, as: TestUser = reader, extra = {}) =>
    h.callContent(sc().getSemanticChanges, { spaceId, revisionId, baseRevisionId: '', limit: 0, ...extra }, as.id);

  it('compares a revision to its parent: edited markdown by hash, moves, deletions', async () => {
    const s = await seeded();
    const first = await changes(s.space.id, s.revision.id);
    expect(first.changes.map((c) => [c.type, c.page?.path])).toEqual([
      ['page_created', 'intro'],
      ['page_created', 'intro/setup'],
      ['page_created', 'faq'],
    ]);
    const next = await apply(s.space.id, s.revision.id, [
      { updatePage: { page: s.intro, markdown: 'bye', move: false } },
      { updatePage: { page: s.setup, move: true, into: s.faq } },
      { deletePage: { page: s.faq } },
    ]);
    const { changes: got, more } = await changes(s.space.id, next.revision!.id);
    expect(more).toBe(0);
    expect(got.map((c) => c.type)).toEqual(['page_edited', 'page_deleted', 'page_deleted']);
    expect(Object.keys(got[0]!.attributes)).toEqual(['document']);
    expect(JSON.parse(got[0]!.attributes.document!.afterJson!)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('compares to a named base of the space, counts what is over the limit, refuses bad limits', async () => {
    const s = await seeded();
    const empty = (await getRevision(s.space.id, s.revision.parents[0]!)).id;
    const r = await changes(s.space.id, s.revision.id, reader, { baseRevisionId: empty, limit: 2 });
    expect([r.changes.length, r.more]).toEqual([2, 1]);
    await rejects(changes(s.space.id, s.revision.id, reader, { limit: 5000 }), status.INVALID_ARGUMENT, /limit/);
  });

  it('answers NOT_FOUND for other spaces’ revisions and spaces the caller cannot see', async () => {
    const a = await seeded();
    const b = await createSpace();
    await rejects(changes(b.id, a.revision.id), status.NOT_FOUND, /revision/);
    await rejects(changes(b.id, b.revisionId, reader, { baseRevisionId: a.revision.id }), status.NOT_FOUND, /baseRevisionId/);
    await rejects(changes(a.space.id, a.revision.id, outsider), status.NOT_FOUND, /Space/);
  });
});
