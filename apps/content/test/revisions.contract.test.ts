import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status } from '@grpc/grpc-js';
import type { Change, CreateRevisionRequest, Revision } from '@quire/proto/space-content';
import { rejects } from '@quire/service-kit/testing/expect';
import { describe, expect, it } from 'vitest';
import {
  h,
  owner,
  editor,
  reader,
  outsider,
  orgId,
  otherOrgId,
  sc,
  createSpace,
  apply,
  getRevision,
  getPage,
  setRevision,
  insert,
  count,
  PNG,
  seeded,
  useRevisionsEnv,
} from './revisions-env.ts';

useRevisionsEnv();

describe('GetRevision', () => {
  it('answers a new space’s empty active revision', async () => {
    const s = await createSpace();
    expect(await getRevision(s.id)).toMatchObject({ id: s.revisionId, spaceId: s.id, parents: [], type: 'edits', pages: [], files: [], variables: {} });
  });

  it('answers NOT_FOUND for unknown revisions, revisions of other spaces, and spaces the caller cannot see', async () => {
    const a = await seeded();
    const b = await createSpace();
    await rejects(getRevision(a.space.id, 'nope'), status.NOT_FOUND, /revisionId: revision "nope" not found/);
    await rejects(getRevision(b.id, a.revision.id), status.NOT_FOUND, /revision/);
    await rejects(getRevision(a.space.id, '', outsider), status.NOT_FOUND, /Space/);
    const foreign = await createSpace(otherOrgId, outsider);
    await rejects(getRevision(foreign.id, '', owner), status.NOT_FOUND);
  });

  it('leaves out git metadata when asked, and carries markdown for exports', async () => {
    const s = await createSpace();
    const made = await h.callContent<CreateRevisionRequest, Revision>(
      sc().createRevision,
      {
        spaceId: s.id,
        parentRevisionId: '',
        pages: [{ id: 'p1', type: '', markdown: '# Guide\ntext', href: '', git: { oid: 'abc', path: 'guide.md' }, pages: [] }],
        files: [],
        git: { oid: 'c0ffee', message: 'import', createdByService: false, url: '', ref: 'main' },
        setActive: true,
        type: '',
      },
      editor.id,
    );
    expect(made.git?.oid).toBe('c0ffee');
    const bare = await getRevision(s.id, '', reader, { metadata: false, withMarkdown: true, withDocuments: false });
    expect(bare.git).toBeUndefined();
    expect(bare.pages[0]).toMatchObject({ id: 'p1', title: 'Guide', slug: 'guide', path: 'guide', markdown: 'text' });
    expect(bare.pages[0]!.git).toBeUndefined();
  });
});

describe('ApplyChanges', () => {
  it('makes a new revision on top of the given one, leaving the space where it was', async () => {
    const s = await seeded();
    const r = await apply(s.space.id, s.revision.id, [{ updatePage: { page: s.faq, fields: { title: 'Questions' }, markdown: 'answers', move: true, into: s.intro, at: 0 } }]);
    expect(r.revision).toMatchObject({ parents: [s.revision.id], spaceId: s.space.id, type: 'edits' });
    expect(r.changes).toEqual([{ kind: 'updated_page', pageId: s.faq, ref: '' }]);
    // The answer names the revision; its tree is read apart.
    expect(r.revision!.pages).toEqual([]);
    const made = await getRevision(s.space.id, r.revision!.id);
    expect(made.pages.map((p) => [p.path, p.pages.map((c) => c.path)])).toEqual([['intro', ['intro/faq', 'intro/setup']]]);
    expect((await getRevision(s.space.id)).id).toBe(s.revision.id);
    // Links by ref became app links.
    const intro = await getPage({ spaceId: s.space.id, pageId: s.intro, format: 'markdown' });
    expect(intro.markdown).toBe(`hello [faq](/pages/${s.faq})`);
  });

  it('writes one document and one revision for a one-page change', async () => {
    const s = await seeded();
    const [docs, revs] = [await count('Document'), await count('Revision')];
    await apply(s.space.id, s.revision.id, [{ updatePage: { page: s.setup, markdown: `unique ${Date.now()}`, move: false } }]);
    expect([await count('Document'), await count('Revision')]).toEqual([docs + 1, revs + 1]);
    // The same markdown again is not stored twice.
    await apply(s.space.id, s.revision.id, [{ updatePage: { page: s.faq, markdown: 'hello [faq](./faq)', move: false } }]);
    expect(await count('Document')).toBe(docs + 2);
  });

  it('refuses bad batches naming the change, writing nothing', async () => {
    const s = await seeded();
    const before = await count('Revision');
    await rejects(apply(s.space.id, s.revision.id, [insert('ok'), { deletePage: { page: 'nope' } }]), status.NOT_FOUND, /^changes\[1\]: page "nope" not found/);
    await rejects(
      apply(
        s.space.id,
        s.revision.id,
        Array.from({ length: 51 }, () => insert('x')),
      ),
      status.INVALID_ARGUMENT,
      /at most 50/,
    );
    await rejects(apply(s.space.id, s.revision.id, [{ updatePage: { page: s.intro, move: true, into: s.setup } }]), status.INVALID_ARGUMENT, /under itself/);
    await rejects(apply(s.space.id, s.revision.id, [{}]), status.INVALID_ARGUMENT, /changes\[0\]: one of/);
    await rejects(apply(s.space.id, 'nope', [insert('x')]), status.NOT_FOUND, /revision "nope"/);
    await rejects(apply(s.space.id, s.revision.id, [{ revertPage: { page: s.faq, revision: 'nope' } }]), status.NOT_FOUND, /changes\.revision: revision "nope"/);
    expect(await count('Revision')).toBe(before);
  });

  it('is for editors: readers get PERMISSION_DENIED, outsiders NOT_FOUND', async () => {
    const s = await seeded();
    await rejects(apply(s.space.id, s.revision.id, [insert('x')], reader), status.PERMISSION_DENIED);
    await rejects(apply(s.space.id, s.revision.id, [insert('x')], outsider), status.NOT_FOUND);
    await rejects(h.callContent(sc().applyChanges, { spaceId: s.space.id, revisionId: s.revision.id, changes: [insert('x')] }), status.UNAUTHENTICATED);
  });

  it("takes no changes on a locked space, change requests' included, and writes nothing", async () => {
    const s = await createSpace(orgId, owner, { editMode: 'locked' });
    const before = await count('Revision');
    await rejects(apply(s.id, s.revisionId, [insert('x')], owner), status.FAILED_PRECONDITION, /is locked/);
    await rejects(setRevision(s.id, s.revisionId, s.revisionId, owner), status.FAILED_PRECONDITION, /is locked/);
    await rejects(
      h.callContent(sc().createRevision, { spaceId: s.id, parentRevisionId: s.revisionId, pages: [], files: [], setActive: false, type: '' }, owner.id),
      status.FAILED_PRECONDITION,
      /is locked/,
    );
    expect(await count('Revision')).toBe(before);
  });

  it('inserts files: bytes in the blob store, image dimensions, and files served back', async () => {
    const s = await seeded();
    const r = await apply(s.space.id, s.revision.id, [
      { insertFiles: { files: [{ ref: 'pic', name: 'pic.png', contentType: 'image/png', data: PNG }] } },
      { updatePage: { page: s.faq, markdown: '![pic](./pic)', move: false } },
    ]);
    const file = r.insertedFiles[0]!;
    expect(file).toMatchObject({ name: 'pic.png', contentType: 'image/png', size: PNG.byteLength, dimensions: { width: 2, height: 3 } });
    const listed = await h.callContent(sc().listFiles, { spaceId: s.space.id, revisionId: r.revision!.id, metadata: true }, reader.id);
    expect(listed.items.map((f) => f.id)).toEqual([file.id]);
    const got = await h.callContent(sc().getFile, { spaceId: s.space.id, revisionId: r.revision!.id, fileId: file.id, metadata: true }, reader.id);
    expect(got.blob).toBe(file.blob);
    const bytes = await h.callContent(sc().readBlob, { blob: file.blob });
    expect(Buffer.compare(bytes.data, PNG)).toBe(0);
    await rejects(h.callContent(sc().getFile, { spaceId: s.space.id, revisionId: '', fileId: file.id, metadata: true }, reader.id), status.NOT_FOUND, /File/);
    await rejects(h.callContent(sc().readBlob, { blob: 'f'.repeat(64) }), status.NOT_FOUND);
  });
  it('inserts a file from a URL through the outbound filter', async () => {
    const server = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pic.png`;
    const s = await seeded();
    const fromUrl = (): Change[] => [{ insertFiles: { files: [{ ref: '', name: 'pic.png', contentType: '', url }] } }];
    try {
      await rejects(apply(s.space.id, s.revision.id, fromUrl()), status.INVALID_ARGUMENT, /^changes\[0\]\.files\[0\]\.url: cannot fetch .*not allowed/);
      process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'true';
      const r = await apply(s.space.id, s.revision.id, fromUrl());
      expect(r.insertedFiles[0]).toMatchObject({ name: 'pic.png', contentType: 'image/png', size: PNG.byteLength, dimensions: { width: 2, height: 3 } });
    } finally {
      delete process.env.QUIRE_ALLOW_PRIVATE_NETWORK;
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
