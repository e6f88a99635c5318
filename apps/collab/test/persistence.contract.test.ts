import { describe, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import { COLLAB } from '@quire/proto/limits';
import { asEdited, readDocument } from '@quire/editor/yjs';
import { ok } from '@quire/gateway/testing';
import { crPage, test as base, type CrPage } from './fixtures.ts';
import type { JSONDocument } from '@quire/document';
import { parseDocumentName, type PageName } from '../src/domain/names.ts';
import { member, startCollab, until, WEB_ORIGIN } from './harness.ts';

// The page's Y.Doc state is stored beside its change request: editors whose Y.Doc outlives the
// server's copy (a reconnect after everyone left, a restarted server) merge into the same items.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON as the test expects it
type Json = any;
// Two paragraphs, for edits of each (not `page`: the suite's one-paragraph page has that name).
const test = base.extend<{ storedPage: CrPage }>({
  storedPage: async ({ g, team, space, changeRequest }, use) => use(await crPage(g, team.owner, space, changeRequest, 'Start.\n\nSecond.')),
});

const blocks = (doc: Y.Doc) => doc.getXmlFragment('default').length;
const paragraph = (doc: Y.Doc, i = 0) => (doc.getXmlFragment('default').get(i) as Y.XmlElement).get(0) as Y.XmlText;
const as = (userId: string) => ({ requestId: randomUUID(), userId });

describe("a page's editing state", () => {
  test('editors reconnecting after all left, and after a restart, merge instead of duplicating; the saved page is the document', async ({ g, team, storedPage }) => {
    let server = await startCollab(g);
    const docs = [new Y.Doc(), new Y.Doc()];
    const join = (url: string) => [
      member(url, storedPage.name, team.owner.token, { origin: WEB_ORIGIN }, docs[0]),
      member(url, storedPage.name, team.editor.token, { origin: WEB_ORIGIN }, docs[1]),
    ];
    let [a, b] = join(server.url);
    await Promise.all([a!.synced, b!.synced]);
    expect(blocks(docs[0]!)).toBe(2);
    paragraph(docs[0]!).insert(0, 'A ');
    paragraph(docs[1]!, 1).insert(0, 'B ');
    await until(() => a!.text() === b!.text() && a!.text().includes('B ') && b!.text().includes('A '), 'both edits on both sides');
    a!.close();
    b!.close();
    await until(() => !server.server.hocuspocus.documents.has(storedPage.name), 'the page unloaded as the last editor left');

    // Reconnecting to the same server: it loads the page again from the change request.
    [a, b] = join(server.url);
    await Promise.all([a!.synced, b!.synced]);
    paragraph(docs[1]!).insert(paragraph(docs[1]!).length, ' again');
    await until(() => a!.text().includes('again'), 'an edit after the reconnect');
    expect(blocks(docs[0]!)).toBe(2);
    expect(blocks(docs[1]!)).toBe(2);
    a!.close();
    b!.close();
    await until(() => !server.server.hocuspocus.documents.has(storedPage.name), 'the page unloaded again');

    // A new server (nothing in memory): the Y.Docs the editors kept still merge.
    await server.stop();
    server = await startCollab(g);
    [a, b] = join(server.url);
    await Promise.all([a!.synced, b!.synced]);
    expect(blocks(docs[0]!)).toBe(2);
    expect(a!.text()).toBe(b!.text());
    expect(paragraph(docs[0]!).toString()).toBe('A Start. again');
    expect(paragraph(docs[0]!, 1).toString()).toBe('B Second.');
    a!.close();
    b!.close();

    // What the change request holds is the document the editors see.
    const saved = (await server.pages.load(parseDocumentName(storedPage.name) as PageName, as(team.owner.id))) as JSONDocument;
    expect(asEdited(saved)).toEqual(readDocument(docs[0]!));
    const res = (await ok(g.call(team.owner, 'GET', `${storedPage.crBase}/content/page/${storedPage.pageId}?format=markdown`))) as Json;
    expect(res.markdown).toContain('A Start. again');
    await server.stop();
  });

  test('a page changed elsewhere is brought in as a diff: an editor holding the old state sees it once', async ({ g, team, collab, storedPage }) => {
    const doc = new Y.Doc();
    let a = member(collab.url, storedPage.name, team.owner.token, { origin: WEB_ORIGIN }, doc);
    await a.synced;
    a.close();
    await until(() => !collab.server.hocuspocus.documents.has(storedPage.name), 'the page unloaded');
    await ok(
      g.call(team.owner, 'POST', `${storedPage.crBase}/content`, {
        changes: [{ operation: 'update_page', page: storedPage.pageId, document: { markdown: 'Start.\n\nChanged.' } }],
      }),
    );
    a = member(collab.url, storedPage.name, team.owner.token, { origin: WEB_ORIGIN }, doc);
    await a.synced;
    await until(() => paragraph(doc, 1).toString() === 'Changed.', 'the change from the API');
    expect(blocks(doc)).toBe(2);
    expect(paragraph(doc).toString()).toBe('Start.');
    a.close();
  });

  test('review stores a state only for who may edit the page, within the bound', async ({ team, collab, storedPage }) => {
    const where = parseDocumentName(storedPage.name) as PageName;
    const state = Y.encodeStateAsUpdate(new Y.Doc({ gc: false }));
    await expect(collab.pages.storeEditingState(where, new Uint8Array(COLLAB.stateBytes.max + 1), as(team.editor.id))).rejects.toThrow(
      `editing.state: at most ${COLLAB.stateBytes.max} bytes (got ${COLLAB.stateBytes.max + 1})`,
    );
    await expect(collab.pages.storeEditingState(where, state, as(team.reader.id))).rejects.toThrow(/PERMISSION_DENIED|may not|cannot/i);
    await expect(collab.pages.storeEditingState(where, state, as(team.outsider.id))).rejects.toThrow(/NOT_FOUND|not found/i);
    await expect(collab.pages.editingState(where, as(team.outsider.id))).rejects.toThrow(/NOT_FOUND|not found/i);
    expect(await collab.pages.editingState(where, as(team.reader.id))).toHaveLength(0);
  });
});
