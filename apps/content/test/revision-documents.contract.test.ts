import { status } from '@grpc/grpc-js';
import type { Page, PutBlobsRequest, PutBlobsResponse } from '@quire/proto/space-content';
import { MAX_BLOB_BYTES, MAX_BLOBS_PER_CALL, MAX_JSON_DEPTH } from '@quire/service-kit';
import { rejects } from '@quire/service-kit/testing/expect';
import { describe, expect, it } from 'vitest';
import { fromMarkdown, paragraph, text, type DocumentInlineMention } from '@quire/document';
import { documentId } from '../src/domain/changes.ts';
import { openStore } from '../src/store/index.ts';
import { h, db, editor, reader, outsider, sc, createSpace, apply, getRevision, getPage, insert, count, PNG, seeded, useRevisionsEnv } from './revisions-env.ts';

useRevisionsEnv();

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
        { object: 'block', type: 'heading-2', data: {}, nodes: [text('Ask')] },
        {
          object: 'block',
          type: 'hint',
          data: { style: 'warning' },
          nodes: [paragraph([text('Read the '), { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: s.faq } }, nodes: [text('FAQ')] }, text(' first.')])],
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
    const mention: DocumentInlineMention = { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: reader.id } } };
    const said = {
      object: 'document',
      data: {},
      nodes: [paragraph([text('Ask '), mention])],
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
      nodes: [depth === 0 ? paragraph([text('deep')]) : quote(depth - 1)],
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
