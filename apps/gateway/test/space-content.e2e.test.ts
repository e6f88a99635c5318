import type { AddressInfo } from 'node:net';
import { GitBookAPI } from '@gitbook/api';
import type { ApplyChangesRequest, ApplyChangesResponse, Change, CreateRevisionRequest, GetRevisionRequest, Revision } from '@quire/proto/space-content';
import type { TestUser } from '@quire/orgs/testing';
import { describe, expect } from 'vitest';
import { checkJsonDocument } from '../src/schemas/document.ts';
import { schemaErrors } from './gitbook-spec.ts';
import { expectError, ok, type Gateway } from './harness.ts';
import { ownGateway, test as base } from './fixtures.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEUlEQVR4nGP8z8DwnwEIGGEMAC/WAf7C9rEAAAAAAElFTkSuQmCC', 'base64');
const insert = (title: string, extra: Record<string, unknown> = {}): Change => ({ insertPage: { fields: { title }, type: '', href: '', ref: '', ...extra } });

/** A space whose active revision (after its first, empty one) has two pages, a link and a file. */
type Handbook = { spaceId: string; revisionId: string; firstRevisionId: string; ids: Record<string, string>; file: { id: string; blob: string } };

// Each test in an organization of its own, on a gateway of this file's.
const it = base.extend<{
  publicUrlGateway: Gateway;
  handbook: Handbook;
  /** A GET as `as` (the team's reader by default); `json` expects a 200 and answers its body. */
  get: (url: string, as?: TestUser | null) => ReturnType<Gateway['call']>;
  json: (url: string, as?: TestUser | null) => Promise<Json>;
}>({
  // Its own gateway: file links are signed for QUIRE_PUBLIC_URL's host.
  publicUrlGateway: ownGateway({ QUIRE_PUBLIC_URL: 'http://quire.test' }),
  handbook: async ({ publicUrlGateway: g, team: { owner, orgId } }, use) => {
    const space = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook' }), 201);
    const r = await g.content.callContent<ApplyChangesRequest, ApplyChangesResponse>(
      g.content.spaceContent.applyChanges,
      {
        spaceId: space.id,
        revisionId: space.revision,
        changes: [
          insert('Intro', { ref: 'intro', markdown: '# Welcome\n\nSee ![logo](./logo)', fields: { title: 'Intro', emoji: '👋' } }),
          insert('Setup', { ref: 'setup', into: 'intro' }),
          insert('Links', { ref: 'site', type: 'link', href: 'https://example.org' }),
          { insertFiles: { files: [{ ref: 'logo', name: 'logo é.png', contentType: 'image/png', data: PNG }] } },
        ],
      },
      owner.id,
    );
    const revisionId = r.revision!.id;
    await g.content.callContent(g.content.spaceContent.setSpaceRevision, { spaceId: space.id, revisionId, expectedRevisionId: space.revision }, owner.id);
    await use({ spaceId: space.id, revisionId, firstRevisionId: space.revision, ids: Object.fromEntries(r.changes.map((c) => [c.ref, c.pageId])), file: r.insertedFiles[0]! });
  },
  get: async ({ publicUrlGateway: g, team }, use) => use((url, as = team.reader) => g.call(as, 'GET', url)),
  json: async ({ get }, use) =>
    use(async (url, as) => {
      const res = await get(url, as);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    }),
});

describe('space content', () => {
  it('answers the active revision with nested pages, files and links', async ({ handbook: { spaceId, revisionId, firstRevisionId, ids, file }, json }) => {
    const r = await json(`/v1/spaces/${spaceId}/content`);
    expect(r).toMatchObject({
      object: 'revision',
      id: revisionId,
      parents: [firstRevisionId],
      type: 'edits',
      reusableContents: [],
      variables: {},
      urls: { app: expect.stringContaining(spaceId) },
    });
    expect(r.pages).toHaveLength(2);
    expect(r.pages[0]).toMatchObject({
      id: ids.intro,
      title: 'Intro',
      emoji: '👋',
      type: 'document',
      kind: 'sheet',
      slug: 'intro',
      path: 'intro',
      hidden: false,
      noIndex: false,
      layout: { width: 'default', cover: true },
      urls: { app: expect.stringContaining(`/s/${spaceId}/intro`) },
      pages: [{ id: ids.setup, path: 'intro/setup', pages: [] }],
    });
    expect(r.pages[0].documentId).toMatch(/^[0-9a-f]{64}$/);
    expect(r.pages[0]).not.toHaveProperty('markdown');
    expect(r.pages[1]).toMatchObject({ type: 'link', kind: 'link', href: 'https://example.org', target: { kind: 'url', url: 'https://example.org' } });
    expect(r.files[0]).toMatchObject({ id: file.id, name: 'logo é.png', contentType: 'image/png', size: PNG.byteLength, dimensions: { width: 2, height: 3 } });
    expect(r.files[0].downloadURL).toMatch(/^http:\/\/quire\.test\/files\/[0-9a-f]{64}\?/);
    expect(await json(`/v1/spaces/${spaceId}/content?metadata=false&computed=false`)).toMatchObject({ id: revisionId });
  });

  it('lists the pages and the files', async ({ handbook: { spaceId, ids, file }, get, json }) => {
    const { pages } = await json(`/v1/spaces/${spaceId}/content/pages`);
    expect(pages.map((p: { id: string }) => p.id)).toEqual([ids.intro, ids.site]);
    const files = await json(`/v1/spaces/${spaceId}/content/files?limit=10`);
    expect(files).toMatchObject({ count: 1, items: [{ id: file.id }] });
    expect(await json(`/v1/spaces/${spaceId}/content/files/${file.id}`)).toMatchObject({ id: file.id, size: PNG.byteLength });
    expectError(await get(`/v1/spaces/${spaceId}/content/files/nope`), 404, /File "nope" not found/);
    expectError(await get(`/v1/spaces/${spaceId}/content/files?limit=1001`), 400, /limit/);
  });

  it('gets a page by id with its markdown or parsed document, and by path', async ({ handbook: { spaceId, ids, file }, get, json }) => {
    const md = await json(`/v1/spaces/${spaceId}/content/page/${ids.intro}?format=markdown`);
    expect(md.markdown).toBe(`# Welcome\n\nSee ![logo](/files/${file.id})`);
    const doc = await json(`/v1/spaces/${spaceId}/content/page/${ids.intro}?format=document&evaluated=true`);
    // GitBook's JSONDocument, its image's source resolved to the space's file.
    expect(doc.document).toMatchObject({ object: 'document', nodes: [{ type: 'heading-1' }, { type: 'paragraph' }] });
    expect(JSON.stringify(doc.document)).toContain(JSON.stringify({ kind: 'file', file: file.id }));
    checkJsonDocument(doc.document, 'document');
    const byPath = await json(`/v1/spaces/${spaceId}/content/path/intro?format=document`);
    expect(byPath.document).toEqual(doc.document);
    expect(doc).not.toHaveProperty('markdown');
    const bare = await json(`/v1/spaces/${spaceId}/content/page/${ids.intro}`);
    expect(bare).not.toHaveProperty('markdown');
    expect(bare).not.toHaveProperty('document');
    expect((await json(`/v1/spaces/${spaceId}/content/path/intro/setup`)).id).toBe(ids.setup);
    expect((await json(`/v1/spaces/${spaceId}/content/path/intro%2Fsetup?format=markdown`)).markdown).toBe('');
    expectError(await get(`/v1/spaces/${spaceId}/content/page/${ids.intro}?format=html`), 400, /format/);
    expectError(await get(`/v1/spaces/${spaceId}/content/page/nope`), 404, /Page "nope" not found/);
    expectError(await get(`/v1/spaces/${spaceId}/content/path/nowhere`), 404, /nowhere/);
  });

  it('reads any revision of the space by id, and no other space’s', async ({
    publicUrlGateway: g,
    team: { owner, orgId },
    handbook: { spaceId, revisionId, firstRevisionId, ids },
    get,
    json,
  }) => {
    expect(await json(`/v1/spaces/${spaceId}/revisions/${firstRevisionId}`)).toMatchObject({ id: firstRevisionId, pages: [] });
    expect((await json(`/v1/spaces/${spaceId}/revisions/${revisionId}/pages`)).pages).toHaveLength(2);
    expect((await json(`/v1/spaces/${spaceId}/revisions/${revisionId}/page/${ids.setup}`)).path).toBe('intro/setup');
    expect((await json(`/v1/spaces/${spaceId}/revisions/${revisionId}/path/intro`)).id).toBe(ids.intro);
    const files = await json(`/v1/spaces/${spaceId}/revisions/${revisionId}/files`);
    expect(files.count).toBe(1);
    expect(await json(`/v1/spaces/${spaceId}/revisions/${revisionId}/files/${files.items[0].id}`)).toMatchObject({ id: files.items[0].id, size: PNG.byteLength });
    expectError(await get(`/v1/spaces/${spaceId}/revisions/${firstRevisionId}/files/${files.items[0].id}`), 404, /File/);
    const other = (await g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Other' })).json();
    expectError(await get(`/v1/spaces/${other.id}/revisions/${revisionId}`), 404, /revision/);
    expectError(await get(`/v1/spaces/${spaceId}/revisions/nope`), 404, /revision "nope"/);
  });

  it("gets a document by id: GitBook's JSONDocument, with its markdown", async ({ handbook: { spaceId }, get, json }) => {
    const { pages } = await json(`/v1/spaces/${spaceId}/content/pages`);
    const d = await json(`/v1/spaces/${spaceId}/documents/${pages[0].documentId}`);
    expect(d).toMatchObject({
      object: 'document',
      id: pages[0].documentId,
      markdown: expect.stringContaining('Welcome'),
      data: {},
      nodes: [{ type: 'heading-1' }, { type: 'paragraph' }],
    });
    checkJsonDocument(d, 'document');
    expectError(await get(`/v1/spaces/${spaceId}/documents/${'0'.repeat(64)}`), 404, /Document/);
    expectError(await get(`/v1/spaces/${spaceId}/documents/not-a-hash`), 400, /documentId/);
  });

  it('serves file bytes on the signed link only, without a token', async ({ handbook: { spaceId, file }, get, json }) => {
    const { downloadURL } = await json(`/v1/spaces/${spaceId}/content/files/${file.id}`);
    const path = downloadURL.replace('http://quire.test', '');
    const res = await get(path, null);
    expect(res.statusCode).toBe(200);
    expect(Buffer.compare(res.rawPayload, PNG)).toBe(0);
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''logo%20%C3%A9.png`);
    expectError(await get(path.replace(/sig=[0-9a-f]/, 'sig=x'), null), 404);
    expectError(await get(path.replace('name=', 'name=other'), null), 404);
    const expired = new URL(downloadURL);
    expired.searchParams.set('exp', '1000');
    expectError(await get(expired.pathname + expired.search, null), 404);
  });

  it('hides the content from outsiders and anonymous callers', async ({ team: { outsider }, handbook: { spaceId, ids }, get }) => {
    expectError(await get(`/v1/spaces/${spaceId}/content`, outsider), 404, /Space/);
    expectError(await get(`/v1/spaces/${spaceId}/content/page/${ids.intro}`, outsider), 404);
    expectError(await get(`/v1/spaces/${spaceId}/content`, null), 401);
  });

  it('serves the official GitBook client: content, pages and one page', async ({ publicUrlGateway: g, team: { reader }, handbook: { spaceId, revisionId, ids } }) => {
    await g.app.listen({ host: '127.0.0.1', port: 0 });
    const endpoint = `http://127.0.0.1:${(g.app.server.address() as AddressInfo).port}`;
    const api = new GitBookAPI({ endpoint, authToken: reader.token });
    const { data: revision } = await api.spaces.getCurrentRevision(spaceId);
    expect(revision).toMatchObject({ object: 'revision', id: revisionId });
    const { data: list } = await api.spaces.listPages(spaceId);
    expect(list.pages.map((p) => p.id)).toEqual([ids.intro, ids.site]);
    const { data: page } = await api.spaces.getPageById(spaceId, ids.intro!, { format: 'markdown' });
    expect(page).toMatchObject({ id: ids.intro, title: 'Intro', markdown: expect.stringContaining('Welcome') });
    const { data: byPath } = await api.spaces.getPageByPath(spaceId, 'intro/setup');
    expect(byPath.id).toBe(ids.setup);
  });
});

describe('reusable contents', () => {
  it('answers one by id in the active content, a revision and a change request, as GitBook does; 404 for unknown ids and for spaces the caller cannot see', async ({
    publicUrlGateway: g,
    team: { owner, outsider, orgId },
    handbook: { firstRevisionId },
    get,
    json,
  }) => {
    const id = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Included' }), 201)).id as string;
    const git = { oid: 'b'.repeat(40), path: '.gitbook/includes/steps.md' };
    const { id: revisionId } = await g.content.callContent<CreateRevisionRequest, Revision>(
      g.content.spaceContent.createRevision,
      {
        spaceId: id,
        parentRevisionId: '',
        pages: [{ id: 'start', type: '', fields: { title: 'Start' }, markdown: 'Intro.\n\n{% include "steps" %}\n', href: '', pages: [] }],
        files: [],
        setActive: true,
        type: '',
        reusableContents: { items: [{ id: 'steps', title: 'Setup steps', documentId: '', markdown: '1. Download\n', git }] },
      },
      owner.id,
    );
    const r = await g.content.callContent<GetRevisionRequest, Revision>(
      g.content.spaceContent.getRevision,
      { spaceId: id, revisionId, metadata: true, withMarkdown: false, withDocuments: false },
      owner.id,
    );
    const expected = { id: 'steps', title: 'Setup steps', document: r.reusableContents[0]!.documentId, git };
    const active = await json(`/v1/spaces/${id}/content/reusable-contents/steps`);
    expect(active).toEqual(expected);
    expect(schemaErrors('RevisionReusableContent', active)).toEqual([]);
    expect(await json(`/v1/spaces/${id}/content/reusable-contents/steps?metadata=false`)).toEqual({ ...expected, git: undefined });
    expect(await json(`/v1/spaces/${id}/revisions/${r.id}/reusable-contents/steps`)).toEqual(expected);
    expect((await json(`/v1/spaces/${id}/content`)).reusableContents).toEqual([expected]);
    // Its document is readable where GitBook's id says.
    expect(await json(`/v1/spaces/${id}/documents/${expected.document}`)).toMatchObject({ object: 'document', markdown: '1. Download\n' });
    // A change request's content carries them.
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${id}/change-requests`, { subject: 'Edit' }), 201);
    expect(await json(`/v1/spaces/${id}/change-requests/${cr.number}/content/reusable-contents/steps`)).toEqual(expected);
    // Unknown ids, bad ids, other organizations.
    expectError(await get(`/v1/spaces/${id}/content/reusable-contents/nope`), 404, /Reusable content "nope" not found/);
    expectError(await get(`/v1/spaces/${id}/revisions/${firstRevisionId}/reusable-contents/steps`), 404);
    expectError(await get(`/v1/spaces/${id}/change-requests/${cr.number}/content/reusable-contents/nope`), 404);
    expectError(await get(`/v1/spaces/${id}/content/reusable-contents/a.b`), 400, /reusableContentId/);
    expectError(await get(`/v1/spaces/${id}/content/reusable-contents/steps`, outsider), 404);
    expectError(await get(`/v1/spaces/${id}/change-requests/${cr.number}/content/reusable-contents/steps`, outsider), 404);
    expectError(await get(`/v1/spaces/${id}/revisions/${r.id}/reusable-contents/steps`, outsider), 404);
  });
});
