import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestUser } from '@quire/orgs/testing';
import { paragraph, text } from '@quire/document';
import { pdfText } from '@quire/render/testing';
import { Role } from '@quire/policy';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkJsonDocument } from '../src/schemas/document.ts';
import { schemaErrors } from './gitbook-spec.ts';
import { expectError, fetchSigned, ok, pdfOf, type Gateway } from './harness.ts';
import { gatewayWithTenant } from './fixtures.ts';

// The smallest PNG: 1x1 transparent.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const SITE: Record<string, string> = { '/': '<html><head><title>Imported | Site</title></head><body><h1>Imported</h1><p>Hello.</p></body></html>' };

let g: Gateway, owner: TestUser, reader: TestUser, outsider: TestUser, orgId: string;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  site = createServer((req, res) => (SITE[req.url!] ? res.writeHead(200, { 'content-type': 'text/html' }).end(SITE[req.url!]) : res.writeHead(404).end()));
  await new Promise<void>((resolve) => site.listen(0, TEST_PRIVATE_HOST, resolve));
  siteUrl = `http://${TEST_PRIVATE_HOST}:${(site.address() as AddressInfo).port}/`;
  ({ g, owner, reader, outsider, orgId } = await gatewayWithTenant({}, { reader: Role.ROLE_READ }));
});
afterAll(async () => {
  await g?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

/** A change request with two pages (one with a table, code and an embedded image) and a file. */
async function changeRequest() {
  const spaceId = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Docs' }), 201)).id;
  const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Docs' }), 201);
  const base = `/v1/spaces/${spaceId}/change-requests/${cr.number}`;
  await ok(
    g.call(owner, 'POST', `${base}/content`, {
      changes: [
        { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG }] },
        {
          operation: 'insert_page',
          title: 'Getting started',
          ref: 'start',
          document: { markdown: '# Getting started\n\n| Step | Do |\n| --- | --- |\n| 1 | Install |\n\n![logo](./logo)\n\n```sh\nnpm i\n```\n' },
        },
        { operation: 'insert_page', title: 'Reference', document: { markdown: 'See [start](./start.md) and [gone](https://example.invalid/x).' } },
      ],
    }),
  );
  const pages = (await ok(g.call(owner, 'GET', `${base}/content/pages`))).pages as { id: string; title: string }[];
  return { spaceId, cr, base, page: (t: string) => pages.find((p) => p.title === t)!.id };
}

/** A JSONDocument: a heading, then a warning hint whose paragraph links to `page`. */
const hintDocument = (page: string) => ({
  object: 'document',
  data: {},
  nodes: [
    { object: 'block', type: 'heading-2', data: {}, nodes: [text('Careful')] },
    {
      object: 'block',
      type: 'hint',
      data: { style: 'warning' },
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          nodes: [text('Never skip the '), { object: 'inline', type: 'link', data: { ref: { kind: 'page', page } }, nodes: [text('backups')] }, text('.')],
        },
      ],
    },
  ],
});

/** Fetches a signed URL through the gateway (its path and query, without the public address). */
describe("a change request's content as GitBook's JSONDocument", () => {
  it('takes a document in insert_page and update_page, stores its markdown and reads it back the same', async () => {
    const { base, page } = await changeRequest();
    const document = hintDocument(page('Reference'));
    await ok(g.call(owner, 'POST', `${base}/content`, { changes: [{ operation: 'insert_page', title: 'Safety', document }] }));
    const pages = (await ok(g.call(owner, 'GET', `${base}/content/pages`))).pages as { id: string; title: string }[];
    const safety = pages.find((p) => p.title === 'Safety')!.id;
    const md = await ok(g.call(owner, 'GET', `${base}/content/page/${safety}?format=markdown`));
    expect(md.markdown).toBe(`## Careful\n\n{% hint style="warning" %}\nNever skip the [backups](/pages/${page('Reference')}).\n{% endhint %}\n`);
    const read = await ok(g.call(reader, 'GET', `${base}/content/page/${safety}?format=document`));
    expect(read.document).toEqual(document);
    checkJsonDocument(read.document, 'document');
    const byPath = await ok(g.call(reader, 'GET', `${base}/content/path/${read.path}?format=document`));
    expect(byPath).toMatchObject({ id: safety, document });
    await ok(g.call(owner, 'POST', `${base}/content`, { changes: [{ operation: 'update_page', page: safety, document: { ...document, nodes: document.nodes.slice(0, 1) } }] }));
    expect((await ok(g.call(reader, 'GET', `${base}/content/page/${safety}?format=document`))).document).toEqual({ ...document, nodes: document.nodes.slice(0, 1) });
  });

  it('keeps what markdown cannot carry: the document is the page, markdown its projection', async () => {
    const { spaceId, base, page } = await changeRequest();
    const files = (await ok(g.call(owner, 'GET', `${base}/content/files`))).items as { id: string; name: string }[];
    const logo = files.find((f) => f.name === 'logo.png')!.id;
    const start = page('Getting started');
    const document = {
      object: 'document',
      data: {},
      nodes: [
        paragraph([
          text('Hello '),
          { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f44b' } },
          text(' '),
          { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: owner.id } } },
          text(' mind the flamingo ', [{ object: 'mark', type: 'color', data: { text: 'red', background: 'yellow' } }]),
          { object: 'inline', type: 'button', isVoid: true, data: { label: 'Begin', kind: 'primary', ref: { kind: 'page', page: start } } },
          {
            object: 'inline',
            type: 'annotation',
            isVoid: false,
            data: {},
            nodes: [text('quorum')],
            fragments: [{ object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: [paragraph([text('Most voters.')])] }],
          },
        ]),
        { object: 'block', type: 'drawing', isVoid: true, data: { ref: { kind: 'file', file: logo } } },
        { object: 'block', type: 'integration', isVoid: true, data: { integration: 'mermaid', block: 'diagram', props: { theme: {} } } },
      ],
    };
    checkJsonDocument(document, 'document');
    await ok(g.call(owner, 'POST', `${base}/content`, { changes: [{ operation: 'insert_page', title: 'Rich', document }] }));
    const pages = (await ok(g.call(owner, 'GET', `${base}/content/pages`))).pages as { id: string; title: string }[];
    const rich = pages.find((p) => p.title === 'Rich')!.id;
    const read = await ok(g.call(reader, 'GET', `${base}/content/page/${rich}?format=document`));
    expect(read.document).toEqual(document);
    // The projection: what markdown can say of it, links to the revision's pages and files as content writes them.
    const md = (await ok(g.call(reader, 'GET', `${base}/content/page/${rich}?format=markdown`))).markdown as string;
    expect(md).toContain('Hello 👋');
    expect(md).toContain(`![](/files/${logo})`);
    expect(md).not.toContain('mermaid');
    // Links come from the document: its drawing links the file.
    const backlinks = (await ok(g.call(owner, 'GET', `${base}/content/files/${logo}/backlinks`))).items as { page: { id: string } }[];
    expect(backlinks.map((l) => l.page.id)).toContain(rich);

    // The same document written again is the same document: the page's document id does not move.
    await ok(g.call(owner, 'POST', `${base}/content`, { changes: [{ operation: 'update_page', page: rich, document }] }));
    expect((await ok(g.call(reader, 'GET', `${base}/content/page/${rich}`))).documentId).toBe(read.documentId);

    // Merged into the space: read back whole from the space's revision, and found by its text.
    await ok(g.call(owner, 'POST', `${base}/merge`));
    const live = await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/content/page/${rich}?format=document`));
    expect(live).toMatchObject({ documentId: read.documentId, document });
    const found = (await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/search?query=flamingo`))).items as { id: string }[];
    expect(found.map((p) => p.id)).toEqual([rich]);
    // An annotation's note too.
    const noted = (await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/search?query=voters`))).items as { id: string; sections: { body: string }[] }[];
    expect(noted.map((p) => p.id)).toEqual([rich]);
    expect(noted[0]!.sections[0]!.body).toContain('Most voters.');

    // Its projection written as markdown is a markdown page, as before: what markdown cannot carry is gone.
    const next = `/v1/spaces/${spaceId}/change-requests/${(await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Plain' }), 201)).number}`;
    await ok(g.call(owner, 'POST', `${next}/content`, { changes: [{ operation: 'update_page', page: rich, document: { markdown: md } }] }));
    const plain = await ok(g.call(reader, 'GET', `${next}/content/page/${rich}?format=markdown`));
    expect(plain.markdown).toBe(md);
    expect(plain.documentId).not.toBe(read.documentId);
    const reread = (await ok(g.call(reader, 'GET', `${next}/content/page/${rich}?format=document`))).document;
    expect(JSON.stringify(reread)).not.toContain('"emoji"');
    expect(JSON.stringify(reread)).not.toContain('"integration"');
  });

  it('answers 400 naming the field for a document GitBook would refuse, writing nothing', async () => {
    const { base } = await changeRequest();
    const before = (await ok(g.call(owner, 'GET', base))).revision;
    const bad = (document: unknown, operation = 'insert_page') =>
      g.call(owner, 'POST', `${base}/content`, {
        changes: [
          { operation: 'insert_page', title: 'Fine', document: { markdown: 'ok' } },
          { operation, title: 'Bad', page: 'x', document },
        ],
      });
    expectError(await bad({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'no-such-block', nodes: [] }] }), 400, /body\.changes\[1\]\.document\.nodes\.0/);
    expectError(await bad({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'hint', data: { style: 'loud' }, nodes: [] }] }), 400, /body\.changes\[1\]\.document/);
    expectError(await bad({ object: 'document', nodes: [] }), 400, /body\.changes\[1\]\.document/);
    expectError(await bad({ object: 'page', data: {}, nodes: [] }, 'update_page'), 400, /body\.changes\[1\]\.document/);
    expect((await ok(g.call(owner, 'GET', base))).revision).toBe(before);
  });

  it('indexes the merged page for search by its text, never its block tags', async () => {
    const { spaceId, base, page } = await changeRequest();
    await ok(g.call(owner, 'POST', `${base}/content`, { changes: [{ operation: 'insert_page', title: 'Safety', document: hintDocument(page('Reference')) }] }));
    await ok(g.call(owner, 'POST', `${base}/merge`));
    const search = async (q: string) => (await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/search?query=${q}`))).items as { title: string; sections: { body: string }[] }[];
    const found = await search('backups');
    expect(found.map((p) => p.title)).toEqual(['Safety']);
    expect(found[0]!.sections.map((s) => s.body)).toEqual(['Never skip the backups.']);
    for (const tag of ['endhint', 'hint', 'warning', 'style']) expect(await search(tag), tag).toEqual([]);
  });
});

describe("a change request's content over HTTP", () => {
  it('reads the revision, pages, files, page, links and backlinks of the change request, not of the space', async () => {
    const { base, page, spaceId } = await changeRequest();
    const revision = await ok(g.call(reader, 'GET', `${base}/content`));
    expect(revision).toMatchObject({ object: 'revision', id: (await ok(g.call(owner, 'GET', base))).revision });
    expect(revision.pages.map((p: { title: string }) => p.title)).toEqual(['Getting started', 'Reference']);
    const files = await ok(g.call(owner, 'GET', `${base}/content/files`));
    expect(files.items.map((f: { name: string }) => f.name)).toEqual(['logo.png']);
    const fileId = files.items[0].id;
    expect((await ok(g.call(owner, 'GET', `${base}/content/files/${fileId}`))).name).toBe('logo.png');
    expect((await ok(g.call(owner, 'GET', `${base}/content/files/${fileId}/backlinks`))).items).toEqual([
      expect.objectContaining({ kind: 'page', page: expect.objectContaining({ id: page('Getting started') }) }),
    ]);
    expect((await ok(g.call(owner, 'GET', `${base}/content/page/${page('Reference')}?format=markdown`))).markdown).toContain(`/pages/${page('Getting started')}`);
    const links = await ok(g.call(owner, 'GET', `${base}/content/page/${page('Reference')}/links`));
    expect(links.stats.total).toBeGreaterThan(0);
    expect((await ok(g.call(owner, 'GET', `${base}/links`))).stats.total).toBeGreaterThan(0);
    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/pages`))).pages).toEqual([]);
    expectError(await g.call(owner, 'GET', `${base}/content/page/missing`), 404);
    expectError(await g.call(outsider, 'GET', `${base}/content`), 404);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/99/content/pages`), 404, /Change request "99"/);
  });

  it("imports a website into the change request's content only", async () => {
    const { base, spaceId } = await changeRequest();
    const before = (await ok(g.call(owner, 'GET', base))).revision;
    const res = await ok(g.call(owner, 'POST', `${base}/content/import`, { url: siteUrl, source: 'website' }), 201);
    expect(res).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 });
    expect((await ok(g.call(owner, 'GET', base))).revision).toBe(res.revision);
    expect(res.revision).not.toBe(before);
    expect((await ok(g.call(owner, 'GET', `${base}/content/pages`))).pages.map((p: { title: string }) => p.title)).toContain('Imported');
    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/pages`))).pages).toEqual([]);
    expectError(await g.call(reader, 'POST', `${base}/content/import`, { url: siteUrl, source: 'website' }), 403);
    expectError(await g.call(owner, 'POST', `${base}/content/import`, { url: 'not a url', source: 'website' }), 400, /url/);
  });

  it('gives a signed link to a real PDF of the pages, or of one page', async () => {
    const { base, page } = await changeRequest();
    const { url } = await ok(g.call(reader, 'GET', `${base}/pdf`));
    expect(url).toMatch(/\/pdf\/download\?.*sig=/);
    const res = await fetchSigned(g, url);
    expect(res.statusCode, res.body).toBe(200);
    const text = pdfOf(res);
    expect(text).toContain('Getting started');
    expect(text).toContain('Reference');
    expect(text).toContain('Install');
    expect(res.rawPayload.toString('latin1')).toContain('/Subtype /Image');

    const one = await fetchSigned(g, (await ok(g.call(owner, 'GET', `${base}/pdf?only=true&page=${page('Reference')}`))).url);
    expect(pdfText(one.rawPayload)).toContain('Reference');
    expect(pdfText(one.rawPayload)).not.toContain('Getting started');

    expectError(await fetchSigned(g, url.replace(/sig=[0-9a-f]+/, `sig=${'0'.repeat(64)}`)), 404, /expired/);
    expectError(await fetchSigned(g, url.replace(/user=[^&]+/, `user=${outsider.id}`)), 404);
    expectError(await g.call(owner, 'GET', `${base}/pdf?only=true`), 400, /page/);
    expectError(await g.call(outsider, 'GET', `${base}/pdf`), 404);
    expectError(await fetchSigned(g, (await ok(g.call(owner, 'GET', `${base}/pdf?only=true&page=missing`))).url), 404, /page/);
  });
});

describe('semantic changes', () => {
  type Change = {
    type: string;
    page?: { id: string; title: string; path?: string };
    file?: { name: string; downloadURL: string };
    attributes?: Record<string, { before?: unknown; after?: unknown }>;
  };
  const kinds = (changes: Change[]) => changes.map((c) => `${c.type} ${c.page?.title ?? c.file?.name}`).sort();

  it("answers what a change request and a revision change, as GitBook's RevisionSemanticChanges", async () => {
    const { spaceId, base, page } = await changeRequest();
    const created = ['file_created logo.png', 'page_created Getting started', 'page_created Reference'];
    expect(kinds((await ok(g.call(owner, 'GET', `${base}/changes`))).changes)).toEqual(created);
    const file = ((await ok(g.call(owner, 'GET', `${base}/changes`))).changes as Change[]).find((c) => c.file)!.file!;
    expect((await g.app.inject({ method: 'GET', url: file.downloadURL })).statusCode).toBe(200);

    // Merged, the space's new revision changes the same against its parent; `limit` counts the rest in `more`.
    const { revision } = await ok(g.call(owner, 'POST', `${base}/merge`));
    expect(kinds((await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/revisions/${revision}/changes`))).changes)).toEqual(created);
    const limited = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/revisions/${revision}/changes?limit=1`));
    expect([limited.changes.length, limited.more]).toEqual([1, 2]);

    // A second change request renames a page and edits another's text: only those, with before and after.
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edits' }), 201);
    const next = `/v1/spaces/${spaceId}/change-requests/${cr.number}`;
    await ok(
      g.call(owner, 'POST', `${next}/content`, {
        changes: [
          { operation: 'update_page', page: page('Reference'), title: 'API reference' },
          { operation: 'update_page', page: page('Getting started'), document: { markdown: '# Getting started\n\nNew text.\n' } },
        ],
      }),
    );
    const edits = (await ok(g.call(owner, 'GET', `${next}/changes`))).changes as Change[];
    expect(kinds(edits)).toEqual(['page_edited API reference', 'page_edited Getting started']);
    expect(edits.find((c) => c.page!.title === 'API reference')!.attributes!.title).toEqual({ before: 'Reference', after: 'API reference' });
    expect(Object.keys(edits.find((c) => c.page!.title === 'Getting started')!.attributes!)).toEqual(['document']);
  });

  it('refuses a bad limit, and hides another organization’s space and revisions (404)', async () => {
    const { spaceId, base } = await changeRequest();
    const { revision } = await ok(g.call(owner, 'POST', `${base}/merge`));
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/revisions/${revision}/changes?limit=0`), 400, /limit/);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/revisions/${revision}/changes?limit=5000`), 400, /limit/);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/revisions/${revision}/changes`), 404);
    expectError(await g.call(outsider, 'GET', `${base}/changes`), 404);
    const other = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Other' }), 201)).id;
    expectError(await g.call(owner, 'GET', `/v1/spaces/${other}/revisions/${revision}/changes`), 404);
  });
});

describe("a space's revisions", () => {
  type Rev = { id: string; type: string; parents: string[]; pages: { title: string }[]; mergedFrom?: { number: number }; urls: { app: string } };
  const titles = (r: Rev) => r.pages.map((p) => p.title);

  it('lists the history newest first, each a whole GitBook Revision (a merge with its change request), page by page', async () => {
    const { spaceId, cr, base } = await changeRequest();
    const first = (await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}`))).revision as string;
    const { revision: merged } = await ok(g.call(owner, 'POST', `${base}/merge`));
    const second = await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'More' }), 201);
    const next = `/v1/spaces/${spaceId}/change-requests/${second.number}`;
    await ok(g.call(owner, 'POST', `${next}/content`, { changes: [{ operation: 'insert_page', title: 'FAQ', document: { markdown: 'Q?' } }] }));
    const { revision: latest } = await ok(g.call(owner, 'POST', `${next}/merge`));

    const all = await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/revisions`));
    const items = all.items as Rev[];
    // The change requests' own edits are not the space's history: only what the space was on.
    expect(items.map((r) => r.id)).toEqual([latest, merged, first]);
    expect(all.next).toBeUndefined();
    for (const r of items) expect(schemaErrors('Revision', r)).toEqual([]);
    expect(items.map((r) => r.mergedFrom?.number)).toEqual([second.number, cr.number, undefined]);
    expect(titles(items[0]!)).toEqual(['Getting started', 'Reference', 'FAQ']);
    expect(titles(items[2]!)).toEqual([]);
    expect(items[1]!.urls.app).toMatch(new RegExp(`/s/${spaceId}/~/revisions/${merged}$`));

    // `limit` pages through the same list; `next.page` continues after the last one.
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/revisions?limit=1${page ? `&page=${page}` : ''}`));
      expect(res.items).toHaveLength(1);
      seen.push(res.items[0].id);
      page = res.next?.page;
    } while (page && seen.length < 10);
    expect(seen).toEqual([latest, merged, first]);
  });

  it('refuses a bad limit or cursor, a cursor of another space, and hides other organizations’ spaces (404)', async () => {
    const { spaceId, base } = await changeRequest();
    await ok(g.call(owner, 'POST', `${base}/merge`));
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/revisions?limit=5000`), 400, /limit/);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/revisions?page=nonsense`), 400, /page/);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/revisions`), 404);
    expectError(await g.call(owner, 'GET', '/v1/spaces/missing/revisions'), 404);
    // A cursor names a revision: one of another space (here, of the outsider's) is not this space's history.
    const theirOrg = (await ok(g.call(outsider, 'GET', '/v1/orgs'))).items[0].id;
    const theirs = (await ok(g.call(outsider, 'POST', `/v1/orgs/${theirOrg}/spaces`, { title: 'Theirs' }), 201)).id;
    const theirCr = await ok(g.call(outsider, 'POST', `/v1/spaces/${theirs}/change-requests`, {}), 201);
    await ok(
      g.call(outsider, 'POST', `/v1/spaces/${theirs}/change-requests/${theirCr.number}/content`, {
        changes: [{ operation: 'insert_page', title: 'Secret', document: { markdown: 'x' } }],
      }),
    );
    const { revision: secret } = await ok(g.call(outsider, 'POST', `/v1/spaces/${theirs}/change-requests/${theirCr.number}/merge`));
    const forged = Buffer.from(`c1.${secret}`).toString('base64url');
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/revisions?page=${forged}`), 400, /page/);
  });
});
