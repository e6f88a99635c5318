import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status } from '@grpc/grpc-js';
import pg from 'pg';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type {
  ApplyChangesRequest,
  ApplyChangesResponse,
  Change,
  CreateRevisionRequest,
  GetPageRequest,
  MergeRevisionsRequest,
  MergeRevisionsResponse,
  Page,
  PutBlobsRequest,
  PutBlobsResponse,
  Revision,
  ReusableContent,
  GetReusableContentRequest,
} from '@quire/proto/space-content';
import { MAX_BLOB_BYTES, MAX_BLOBS_PER_CALL, MAX_JSON_DEPTH } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { rejects } from '@quire/service-kit/testing/expect';
import { connectDb, stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromMarkdown } from '@quire/document';
import { documentId } from '../src/domain/changes.ts';
import { MAX_REDIRECTS } from '../src/domain/redirects.ts';
import { MAX_REUSABLE_CONTENTS } from '../src/domain/reusable.ts';
import { openStore } from '../src/store/index.ts';
import { startContent, type ContentHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: ContentHarness;
let db: pg.Client;
let owner: TestUser, editor: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string, otherOrgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startContent(orgs.address);
  db = await connectDb(h.databaseUrl);
  ({ owner, editor, reader, outsider, orgId, otherOrgId } = await team(orgs, { editor: Role.ROLE_EDIT, reader: Role.ROLE_READ }));
});
afterAll(() => stopAll(db, h, orgs));

const sc = () => h.spaceContent;
const createSpace = (organizationId = orgId, as: TestUser = owner, req: Partial<CreateSpaceRequest> = {}) =>
  h.call<CreateSpaceRequest, Space>(h.client.createSpace, { organizationId, title: 'Handbook', emoji: '', editMode: '', visibility: '', ...req }, as.id);
const apply = (spaceId: string, revisionId: string, changes: Change[], as: TestUser = editor) =>
  h.callContent<ApplyChangesRequest, ApplyChangesResponse>(sc().applyChanges, { spaceId, revisionId, changes }, as.id);
const getRevision = (spaceId: string, revisionId = '', as: TestUser = reader, extra = {}) =>
  h.callContent(sc().getRevision, { spaceId, revisionId, metadata: true, withMarkdown: false, withDocuments: false, ...extra }, as.id);
const getPage = (req: Partial<GetPageRequest> & { spaceId: string }, as: TestUser = reader) =>
  h.callContent<GetPageRequest, Page>(sc().getPage, { revisionId: '', format: '', metadata: true, ...req }, as.id);
const setRevision = (spaceId: string, revisionId: string, expectedRevisionId: string, as: TestUser = editor) =>
  h.callContent(sc().setSpaceRevision, { spaceId, revisionId, expectedRevisionId }, as.id);
const insert = (title: string, extra: Record<string, unknown> = {}): Change => ({ insertPage: { fields: { title }, type: '', href: '', ref: '', ...extra } });
const count = async (table: string) => Number((await db.query(`SELECT count(*) FROM "${table}"`)).rows[0].count);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEUlEQVR4nGP8z8DwnwEIGGEMAC/WAf7C9rEAAAAAAElFTkSuQmCC', 'base64');

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

/** A space with pages Intro (markdown "hello", child Setup) and FAQ, made active. */
async function seeded() {
  const space = await createSpace();
  const r = await apply(space.id, space.revisionId, [
    insert('Intro', { ref: 'intro', markdown: 'hello [faq](./faq)' }),
    insert('Setup', { into: 'intro', ref: 'setup' }),
    insert('FAQ', { ref: 'faq' }),
  ]);
  await setRevision(space.id, r.revision!.id, space.revisionId, owner);
  const id = (ref: string) => r.changes.find((c) => c.ref === ref)!.pageId;
  return { space, revision: r.revision!, intro: id('intro'), setup: id('setup'), faq: id('faq') };
}

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

  it('still takes changes on a locked space (change requests), which then cannot move', async () => {
    const s = await createSpace(orgId, owner, { editMode: 'locked' });
    const r = await apply(s.id, s.revisionId, [insert('x')]);
    await rejects(setRevision(s.id, r.revision!.id, s.revisionId, owner), status.FAILED_PRECONDITION, /locked/);
    await rejects(
      h.callContent(sc().createRevision, { spaceId: s.id, parentRevisionId: '', pages: [], files: [], setActive: true, type: '' }, owner.id),
      status.FAILED_PRECONDITION,
      /locked/,
    );
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

/** Every `ref` of a JSONDocument's nodes, in document order. */
function refsOf(node: unknown): unknown[] {
  if (Array.isArray(node)) return node.flatMap(refsOf);
  if (typeof node !== 'object' || node === null) return [];
  const { data, nodes } = node as { data?: { ref?: unknown }; nodes?: unknown };
  return [...(data?.ref ? [data.ref] : []), ...refsOf(nodes)];
}

describe('ApplyChanges with documents', () => {
  it('stores a JSONDocument as its markdown, refs as links, and reads it back the same', async () => {
    const s = await seeded();
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'heading-2', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Ask', marks: [] }] }] },
        {
          object: 'block',
          type: 'hint',
          data: { style: 'warning' },
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              nodes: [
                { object: 'text', leaves: [{ object: 'leaf', text: 'Read the ', marks: [] }] },
                { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: s.faq } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'FAQ', marks: [] }] }] },
                { object: 'text', leaves: [{ object: 'leaf', text: ' first.', marks: [] }] },
              ],
            },
          ],
        },
      ],
    };
    const r = await apply(s.space.id, s.revision.id, [insert('Asked', { ref: 'asked', documentJson: JSON.stringify(document) })]);
    const id = r.changes[0]!.pageId;
    const stored = await getPage({ spaceId: s.space.id, revisionId: r.revision!.id, pageId: id, format: 'markdown' });
    expect(stored.markdown).toBe(`## Ask\n\n{% hint style="warning" %}\nRead the [FAQ](/pages/${s.faq}) first.\n{% endhint %}\n`);
    const read = await getPage({ spaceId: s.space.id, revisionId: r.revision!.id, pageId: id, format: 'document' });
    expect(JSON.parse(read.documentJson!)).toEqual(document);
    // update_page takes one too.
    const u = await apply(s.space.id, r.revision!.id, [
      { updatePage: { page: id, move: false, documentJson: JSON.stringify({ ...document, nodes: document.nodes.slice(0, 1) }) } },
    ]);
    expect((await getPage({ spaceId: s.space.id, revisionId: u.revision!.id, pageId: id, format: 'markdown' })).markdown).toBe('## Ask\n');
  });

  it('gives a revision read with_documents the documents of the pages their markdown cannot say whole, and only those', async () => {
    const s = await seeded();
    // A mention's member is lost in markdown (`[](<> "mention")`); a plain paragraph is not.
    const mention = { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: reader.id } } };
    const said = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Ask ', marks: [] }] }, mention] }],
    };
    const plain = fromMarkdown('Plain.\n');
    const r = await apply(s.space.id, s.revision.id, [insert('Team', { documentJson: JSON.stringify(said) }), insert('Plain', { documentJson: JSON.stringify(plain) })]);
    const [team, other] = r.changes.map((c) => c.pageId);
    const pages = async (extra: object) => new Map(((await getRevision(s.space.id, r.revision!.id, reader, extra)) as { pages: Page[] }).pages.map((p) => [p.id, p]));
    const read = await pages({ withDocuments: true, withMarkdown: true });
    expect(JSON.parse(read.get(team!)!.documentJson!)).toEqual(said);
    expect(read.get(team!)!.markdown).toBe('Ask [](<> "mention")\n');
    expect(read.get(other!)!.documentJson).toBeUndefined();
    expect(read.get(other!)!.markdown).toBe('Plain.\n');
    // Asked for alone, the documents come without the markdown; not asked for, not at all.
    const alone = await pages({ withDocuments: true });
    expect(JSON.parse(alone.get(team!)!.documentJson!)).toEqual(said);
    expect(alone.get(team!)!.markdown).toBeUndefined();
    expect((await pages({ withMarkdown: true })).get(team!)!.documentJson).toBeUndefined();
  });

  it('refuses what is not a JSONDocument, naming the change, writing nothing', async () => {
    const s = await seeded();
    const before = await count('Revision');
    await rejects(apply(s.space.id, s.revision.id, [insert('ok'), insert('x', { documentJson: '{nope' })]), status.INVALID_ARGUMENT, /^changes\[1\]\.document: not JSON/);
    await rejects(
      apply(s.space.id, s.revision.id, [insert('x', { documentJson: '{"object":"page","nodes":[]}' })]),
      status.INVALID_ARGUMENT,
      /^changes\[0\]\.document: must be a JSONDocument/,
    );
    await rejects(apply(s.space.id, s.revision.id, [insert('x', { documentJson: 'null' })]), status.INVALID_ARGUMENT, /^changes\[0\]\.document: must be a JSONDocument/);
    await rejects(
      apply(s.space.id, s.revision.id, [{ updatePage: { page: s.faq, move: false, markdown: 'a', documentJson: '{"object":"document","data":{},"nodes":[]}' } }]),
      status.INVALID_ARGUMENT,
      /^changes\[0\]: give one of markdown and document/,
    );
    await rejects(apply(s.space.id, s.revision.id, [insert('x', { documentJson: ' '.repeat(5_000_001) })]), status.INVALID_ARGUMENT, /^changes\[0\]\.document: must be at most/);
    // Attack: a document nested past MAX_JSON_DEPTH sent to content directly (no gateway in front), as an insert and as an update.
    const quote = (depth: number): unknown => ({
      object: 'block',
      type: 'blockquote',
      nodes: [depth === 0 ? { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'deep', marks: [] }] }] } : quote(depth - 1)],
    });
    const deep = JSON.stringify({ object: 'document', data: {}, nodes: [quote(MAX_JSON_DEPTH)] });
    await rejects(
      apply(s.space.id, s.revision.id, [insert('x', { documentJson: deep })]),
      status.INVALID_ARGUMENT,
      new RegExp(`^changes\\[0\\]\\.document: nested deeper than ${MAX_JSON_DEPTH} levels`),
    );
    await rejects(
      apply(s.space.id, s.revision.id, [{ updatePage: { page: s.faq, move: false, documentJson: deep } }]),
      status.INVALID_ARGUMENT,
      /^changes\[0\]\.document: nested deeper than/,
    );
    expect(await count('Revision')).toBe(before);
  });
});

describe('pages, documents and blobs', () => {
  it('gets a page by id or path, with markdown or the parsed document', async () => {
    const s = await seeded();
    const bare = await getPage({ spaceId: s.space.id, path: 'intro/setup' });
    expect(bare).toMatchObject({ id: s.setup, path: 'intro/setup', title: 'Setup', type: 'document' });
    expect(bare.markdown).toBeUndefined();
    const withDoc = await getPage({ spaceId: s.space.id, pageId: s.intro, format: 'document' });
    expect(JSON.parse(withDoc.documentJson!)).toMatchObject({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph' }] });
    expect(withDoc.pages.map((p) => p.id)).toEqual([s.setup]);
    await rejects(getPage({ spaceId: s.space.id, pageId: s.intro, format: 'html' }), status.INVALID_ARGUMENT, /^format: must be one of/);
    await rejects(getPage({ spaceId: s.space.id, pageId: 'nope' }), status.NOT_FOUND, /Page "nope"/);
    await rejects(getPage({ spaceId: s.space.id, path: 'setup' }), status.NOT_FOUND, /path "setup"/);
    await rejects(getPage({ spaceId: s.space.id, pageId: s.intro }, outsider), status.NOT_FOUND);
  });

  it("answers GitBook's JSONDocument, links to the revision's pages and files as refs", async () => {
    const s = await seeded();
    const files = await apply(s.space.id, s.revision.id, [{ insertFiles: { files: [{ ref: 'img', name: 'a.png', contentType: 'image/png', data: PNG }] } }]);
    const file = files.insertedFiles[0]!.id;
    const markdown = `See [faq](../faq.md#q), [intro](/pages/${s.intro}), [top](#top), [out](https://example.org), [gone](gone.md) and [it](/files/${file}).\n\n{% hint style="info" %}\nNote\n{% endhint %}\n`;
    const r = await apply(s.space.id, files.revision!.id, [{ updatePage: { page: s.setup, markdown, move: false } }]);
    const page = await getPage({ spaceId: s.space.id, revisionId: r.revision!.id, pageId: s.setup, format: 'document' });
    const doc = JSON.parse(page.documentJson!);
    expect(doc).toMatchObject({ object: 'document', nodes: [{ type: 'paragraph' }, { type: 'hint', data: { style: 'info' } }] });
    expect(refsOf(doc)).toEqual([
      { kind: 'anchor', anchor: 'q', page: s.faq },
      { kind: 'page', page: s.intro },
      { kind: 'anchor', anchor: 'top' },
      { kind: 'url', url: 'https://example.org' },
      { kind: 'url', url: 'gone.md' },
      { kind: 'file', file },
    ]);
    // By path too; a document read by its hash has no page to resolve relative paths against.
    expect(JSON.parse((await getPage({ spaceId: s.space.id, revisionId: r.revision!.id, path: 'intro/setup', format: 'document' })).documentJson!)).toEqual(doc);
  });

  it('stores documents in the model, and analyzes those written before it without changing an answer', async () => {
    const s = await seeded();
    const markdown = `A [link](../faq.md) and a reference:\n\n{% content-ref url="../faq.md" %}\n[faq.md](../faq.md)\n{% endcontent-ref %}\n`;
    const r = await apply(s.space.id, s.revision.id, [{ updatePage: { page: s.setup, markdown, move: false } }]);
    const id = documentId(markdown);
    const stored = (await db.query('SELECT document FROM "Document" WHERE id = $1', [id])).rows[0].document;
    expect(stored).toEqual(fromMarkdown(markdown));
    const read = () => getPage({ spaceId: s.space.id, revisionId: r.revision!.id, pageId: s.setup, format: 'document' }).then((p) => JSON.parse(p.documentJson!));
    const answer = await read();
    expect(refsOf(answer)).toEqual([
      { kind: 'page', page: s.faq },
      { kind: 'page', page: s.faq },
    ]);
    const links = () => db.query('SELECT kind, target FROM "DocumentLink" WHERE "documentId" = $1 ORDER BY position', [id]).then((q) => q.rows);
    const indexed = await links();
    expect(indexed).toEqual([
      { kind: 'page', target: 'path:../faq.md' },
      { kind: 'page', target: 'path:../faq.md' },
    ]);

    // As a row from before the document model, once migrated (20261128100000): no document, not
    // analyzed, its links (as the markdown parser read them) gone to be read again from the model.
    await db.query(`UPDATE "Document" SET document = NULL, analyzed = false WHERE id = $1`, [id]);
    await db.query(`DELETE FROM "DocumentLink" WHERE "documentId" = $1`, [id]);
    expect(await read()).toEqual(answer);
    const { store, close } = openStore(h.databaseUrl, 1);
    try {
      // Its indexer analyzes what is left as it starts.
      await store.search.indexed();
      expect((await store.search.reindex()).documents).toBe(0);
    } finally {
      await close();
    }
    expect((await db.query('SELECT document FROM "Document" WHERE id = $1', [id])).rows[0].document).toEqual(stored);
    expect(await links()).toEqual(indexed);
    expect(await read()).toEqual(answer);
  });

  it('gets a document of the space by its hash, and nobody else’s', async () => {
    const s = await seeded();
    const id = documentId('');
    const doc = await h.callContent(sc().getDocument, { spaceId: s.space.id, documentId: id }, reader.id);
    expect(doc).toMatchObject({ id, markdown: '' });
    const other = await createSpace();
    await rejects(h.callContent(sc().getDocument, { spaceId: other.id, documentId: id }, reader.id), status.NOT_FOUND, /Document/);
  });

  it('stores blobs once by content hash, several in one call, answered in the order given', async () => {
    const put = (...texts: string[]) => h.callContent<PutBlobsRequest, PutBlobsResponse>(sc().putBlobs, { data: texts.map((t) => Buffer.from(t)) }, editor.id);
    const a = await put('bytes');
    const b = await put('more bytes', 'bytes', 'x');
    expect(a.blobs).toEqual([{ blob: documentId('bytes'), size: 5 }]);
    expect(b.blobs).toEqual([{ blob: documentId('more bytes'), size: 10 }, a.blobs[0], { blob: documentId('x'), size: 1 }]);
    expect(await h.callContent(sc().readBlob, { blob: documentId('more bytes') })).toEqual({ data: Buffer.from('more bytes') });
    await rejects(h.callContent(sc().putBlobs, { data: [Buffer.from('x')] }), status.UNAUTHENTICATED);
    // PutBlob (one file), for a git-sync from before PutBlobs during a rolling deploy: the same store.
    expect(await h.callContent(sc().putBlob, { data: Buffer.from('bytes') }, editor.id)).toEqual(a.blobs[0]);
    await rejects(h.callContent(sc().putBlob, { data: Buffer.alloc(MAX_BLOB_BYTES + 1) }, editor.id), status.INVALID_ARGUMENT, /must be at most/);
  });

  it('refuses a PutBlobs call over a bound, naming it, before storing any of its files', async () => {
    const put = (data: Buffer[]) => h.callContent(sc().putBlobs, { data }, editor.id);
    await rejects(put([]), status.INVALID_ARGUMENT, /^data: at least one file/);
    await rejects(put(Array.from({ length: MAX_BLOBS_PER_CALL + 1 }, (_, i) => Buffer.from(`file ${i}`))), status.INVALID_ARGUMENT, /^data: at most 256 files/);
    const big = Buffer.alloc(MAX_BLOB_BYTES + 1, 1);
    await rejects(put([Buffer.from('first of three'), big, Buffer.from('third')]), status.INVALID_ARGUMENT, /^data\[1\]: must be at most/);
    for (const text of ['file 0', 'first of three', 'third']) await rejects(h.callContent(sc().readBlob, { blob: documentId(text) }), status.NOT_FOUND);
  });
});

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
