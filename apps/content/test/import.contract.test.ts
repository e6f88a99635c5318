import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status } from '@grpc/grpc-js';
import type { Space } from '@quire/proto/content';
import type { CreateSpaceRequest } from '@quire/proto/content';
import type {
  GetPageRequest,
  GetRevisionRequest,
  ReadBlobRequest,
  ReadBlobResponse,
  ImportContentRequest,
  ImportContentResponse,
  ListLinksRequest,
  ListLinksResponse,
  Page,
  Revision,
  SearchResponse,
  SearchSpaceRequest,
} from '@quire/proto/space-content';
import { Role } from '@quire/policy';
import { rejects } from '@quire/service-kit/testing/expect';
import { stopAll } from '@quire/service-kit/testing';
import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crawl } from '../src/import/crawl.ts';
import { DEFAULT_IMPORT_LIMITS } from '../src/rpc/import.ts';
import { docx, lyingBomb, para, startContent, zip, type ContentHarness } from './harness.ts';

// A small site: the index links to three pages (one through a redirect), one of which links back
// (a loop), plus an external link and a page that is not HTML.
const layout = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title} | Acme Docs</title><style>p{}</style></head><body><nav><a href="/">Home</a><a href="/nav-only">Nav</a></nav><main>${body}</main><footer>© Acme</footer></body></html>`;
const SITE: Record<string, string> = {
  '/': layout(
    'Home',
    '<h1>Acme Docs</h1><p>Welcome. Read <a href="/guide">the guide</a>, the <a href="/api#auth">API auth section</a> and <a href="/old-faq">the FAQ</a>.</p><p>See also <a href="https://example.com/elsewhere">elsewhere</a>.</p>',
  ),
  '/guide': layout(
    'Guide',
    '<h1>The guide</h1><h2>Steps</h2><ol><li>Install</li><li>Run</li></ol><p>Back to <a href="/">home</a> or on to <a href="/guide#steps">the steps</a>.</p><script>alert(1)</script>',
  ),
  '/api': layout(
    'API',
    '<h1>API</h1><h2 id="auth">Auth</h2><table><thead><tr><th>Header</th><th>Value</th></tr></thead><tbody><tr><td>Authorization</td><td>Bearer token</td></tr></tbody></table><img src="/img/logo.png" alt="Logo"><pre><code>curl /v1</code></pre>',
  ),
  '/faq': layout('FAQ', '<h1>FAQ</h1><p><strong>Is it free?</strong> Yes. Also see <a href="/report.pdf">the report</a>.</p>'),
  '/nav-only': layout('Nav only', '<p>Reached from the navigation.</p>'),
};

let site: Server;
let base: string;
let orgs: OrgsHarness;
let h: ContentHarness;
let owner: TestUser;
let reader: TestUser;
let orgId: string;

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/old-faq') return res.writeHead(301, { location: '/faq' }).end();
    // Never answers: for the time bound.
    if (path === '/slow') return;
    if (path === '/report.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF');
    const html = SITE[path];
    if (!html) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  orgs = await startOrgs();
  h = await startContent(orgs.address);
  [owner, reader] = await Promise.all([orgs.user('owner'), orgs.user('reader')]);
  orgId = (await orgs.organization(owner, [[reader, Role.ROLE_READ]])).id;
});
afterAll(async () => {
  await stopAll(h, orgs);
  await new Promise((resolve) => site?.close(resolve));
});

const newSpace = () => h.call<CreateSpaceRequest, Space>(h.client.createSpace, { organizationId: orgId, title: 'Imported', emoji: '', editMode: '', visibility: '' }, owner.id);
const importSite = (spaceId: string, req: { url?: string; source?: string; revisionId?: string } = {}, as: TestUser = owner) =>
  h.callContent<ImportContentRequest, ImportContentResponse>(h.spaceContent.importContent, { spaceId, url: `${base}/`, source: 'website', revisionId: '', ...req }, as.id);
const getRevision = (spaceId: string, revisionId = '') =>
  h.callContent<GetRevisionRequest, Revision>(h.spaceContent.getRevision, { spaceId, revisionId, metadata: true, withMarkdown: true, withDocuments: false }, owner.id);
const getPage = (spaceId: string, pageId: string) =>
  h.callContent<GetPageRequest, Page>(h.spaceContent.getPage, { spaceId, revisionId: '', pageId, format: 'markdown', metadata: false }, owner.id);

/** Lets each test of the describe reach the test servers on loopback, as production refuses to. */
function allowPrivateNetwork() {
  beforeEach(() => {
    process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'true';
  });
  afterEach(() => {
    delete process.env.QUIRE_ALLOW_PRIVATE_NETWORK;
  });
}

describe('ImportContent from a website', () => {
  allowPrivateNetwork();

  it('imports the page and the same-origin pages it links to as the space’s new revision', async () => {
    const space = await newSpace();
    const res = await importSite(space.id);
    // Fetched: /, /nav-only, /guide, /api, /old-faq (-> /faq), /report.pdf (not HTML, skipped).
    expect(res).toEqual({ revisionId: expect.any(String), importedResources: 5, totalResources: 6 });
    const revision = await getRevision(space.id);
    expect(revision.id).toBe(res.revisionId);
    const titles = revision.pages.map((p) => p.title);
    expect(titles).toEqual(['Acme Docs', 'Nav only', 'The guide', 'API', 'FAQ']);
    const id = (title: string) => revision.pages.find((p) => p.title === title)!.id;

    const home = (await getPage(space.id, id('Acme Docs'))).markdown!;
    expect(home).toContain(`[the guide](/pages/${id('The guide')})`);
    expect(home).toContain(`[API auth section](/pages/${id('API')}#auth)`);
    expect(home).toContain(`[the FAQ](/pages/${id('FAQ')})`);
    expect(home).toContain('[elsewhere](https://example.com/elsewhere)');
    // The title heading, the navigation and the footer are not content.
    expect(home).not.toMatch(/# Acme Docs|Nav|Acme$/m);

    const guide = (await getPage(space.id, id('The guide'))).markdown!;
    expect(guide).toContain('## Steps');
    expect(guide).toMatch(/1\.\s+Install/);
    expect(guide).toContain('[the steps](#steps)');
    expect(guide).not.toContain('alert');
    const api = (await getPage(space.id, id('API'))).markdown!;
    expect(api).toContain('| Authorization | Bearer token |');
    expect(api).toContain(`![Logo](${base}/img/logo.png)`);
    expect(api).toContain('```\ncurl /v1\n```');
    expect((await getPage(space.id, id('FAQ'))).markdown).toContain(`[the report](${base}/report.pdf)`);
  });

  it('makes the imported pages searchable and their links checkable', async () => {
    const space = await newSpace();
    await importSite(space.id);
    const found = await h.callContent<SearchSpaceRequest, SearchResponse>(h.spaceContent.searchSpace, { spaceId: space.id, query: 'bearer token' }, owner.id);
    expect(found.items.map((p) => p.title)).toEqual(['API']);
    const links = await h.callContent<ListLinksRequest, ListLinksResponse>(h.spaceContent.listLinks, { spaceId: space.id, revisionId: '', pageId: '', status: 'broken' }, owner.id);
    expect(links.stats?.broken).toBe(0);
  });

  it('with a revision, builds on it and leaves the space on its revision', async () => {
    const space = await newSpace();
    const before = await getRevision(space.id);
    const res = await importSite(space.id, { revisionId: before.id });
    expect((await getRevision(space.id)).id).toBe(before.id);
    const made = await getRevision(space.id, res.revisionId);
    expect(made.parents).toEqual([before.id]);
    expect(made.pages).toHaveLength(5);
  });

  it('refuses other sources, bad URLs, unreachable sites and readers', async () => {
    const space = await newSpace();
    await rejects(importSite(space.id, { source: 'google-docs' }), status.INVALID_ARGUMENT, /source: "google-docs" imports are not supported; supported: "website", "markdown"/);
    await rejects(importSite(space.id, { source: 'github-wiki' }), status.INVALID_ARGUMENT, /source: "github-wiki" imports are not supported/);
    await rejects(importSite(space.id, { source: 'carrier-pigeon' }), status.INVALID_ARGUMENT, /source: must be one of website/);
    await rejects(importSite(space.id, { source: '' }), status.INVALID_ARGUMENT, /source: required/);
    await rejects(importSite(space.id, { url: 'ftp://example.com/' }), status.INVALID_ARGUMENT, /url: must be an http\(s\) URL/);
    await rejects(importSite(space.id, { url: `${base}/missing` }), status.INVALID_ARGUMENT, /url: .*\/missing answered 404/);
    await rejects(importSite(space.id, {}, reader), status.PERMISSION_DENIED, /editors/);
    expect((await getRevision(space.id)).pages).toEqual([]);
  });
});

describe('crawl bounds', () => {
  allowPrivateNetwork();

  it('fetches at most maxPages pages', async () => {
    const site = await crawl(`${base}/`, { maxPages: 2, maxPageBytes: 1_000_000, timeoutMs: 10_000 });
    expect(site).toMatchObject({ attempted: 2, pages: [{ title: 'Acme Docs' }, { title: 'Nav only' }] });
  });

  it('skips linked pages over maxPageBytes, and fails when the start page is', async () => {
    // Room for the index page, not for the API page.
    const limit = SITE['/']!.length + 10;
    expect(SITE['/api']!.length).toBeGreaterThan(limit);
    const site = await crawl(`${base}/`, { maxPages: 50, maxPageBytes: limit, timeoutMs: 10_000 });
    expect(site.pages.map((p) => p.title)).toEqual(['Acme Docs', 'Nav only', 'The guide', 'FAQ']);
    await expect(crawl(`${base}/api`, { maxPages: 50, maxPageBytes: 100, timeoutMs: 10_000 })).rejects.toThrow(/url: .*\/api is larger than 100 bytes/);
  });

  it('gives up when the time is over', async () => {
    await expect(crawl(`${base}/slow`, { maxPages: 50, maxPageBytes: 100_000, timeoutMs: 300 })).rejects.toThrow(/url: .*\/slow did not answer in time/);
  });
});

it('refuses private addresses unless the private network is allowed', async () => {
  const space = await newSpace();
  await rejects(importSite(space.id), status.INVALID_ARGUMENT, /url: "127\.0\.0\.1" resolves to 127\.0\.0\.1, a private or reserved address/);
  expect((await getRevision(space.id)).pages).toEqual([]);
});

describe('ImportContent from a file', () => {
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  const hex = (n: number) => String(n).repeat(32);
  const FILES: Record<string, Buffer> = {
    '/guide.md': Buffer.from('# Guide\n\nRead **this** first.\n'),
    '/page.html': Buffer.from('<html><head><title>Page | Site</title></head><body><h1>Page</h1><p>Hello <em>HTML</em>.</p></body></html>'),
    '/notes.docx': docx(para('Release notes', 'Heading1') + para('Шрифты и 中文 work.')),
    '/notion.zip': zip({
      [`Home ${hex(1)}.md`]: `# Home\n\nSee [Child](Home%20${hex(1)}/Child%20${hex(2)}.md).\n\n![diagram](Home%20${hex(1)}/diagram.png)\n`,
      [`Home ${hex(1)}/Child ${hex(2)}.md`]: '# Child\n\nNested text.\n',
      [`Home ${hex(1)}/diagram.png`]: PNG,
    }),
    '/confluence.zip': zip({
      'T/index.html': '<html><body><a href="Start_1.html">Start</a></body></html>',
      'T/Start_1.html': '<html><head><title>Team : Start</title></head><body><div id="main-content"><p>Confluence page.</p></div></body></html>',
    }),
    '/gitbook.zip': zip({
      'handbook/SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n* [Setup](setup/README.md)\n  * [Linux](setup/linux.md)\n\n## Reference\n\n* [API](api.md)\n',
      'handbook/README.md': '---\ndescription: All we know\n---\n\n# Handbook\n\nStart with [Linux](setup/linux.md#install).\n',
      'handbook/setup/README.md': '# Setup\n',
      'handbook/setup/linux.md': '---\nemoji: 🐧\n---\n\n# Linux\n\n## Install\n\n![shot](../.gitbook/assets/shot.png)\n',
      'handbook/api.md': '# API\n\nThe [handbook](README.md).\n\n{% include ".gitbook/includes/note.md" %}\n',
      'handbook/.gitbook/includes/note.md': '---\ntitle: Note\n---\n\nSee the [handbook](../../README.md).\n',
      'handbook/.gitbook/assets/shot.png': PNG,
    }),
    '/folders.zip': zip({ 'README.md': '# Home\n', 'guide/README.md': '# Guide\n', 'guide/start.md': '# Start\n' }),
    '/zip-ratio.zip': zip({ 'README.md': '# Home\n', 'zeros.md': new Uint8Array(5 * 1024 * 1024) }),
    '/zip-traversal.zip': zip({ 'README.md': '# Home\n', '../../.github/workflows/x.yml': 'on: push' }),
    '/zip-git.zip': zip({ 'README.md': '# Home\n', '.git/hooks/post-checkout': '#!/bin/sh\n' }),
    '/bomb.zip': lyingBomb(),
    '/evil.zip': zip({ '../../etc/evil.md': '# Evil' }),
  };
  let files: Server;
  let filesBase: string;
  let hits = 0;
  beforeAll(async () => {
    files = createServer((req, res) => {
      hits++;
      const body = FILES[new URL(req.url!, 'http://x').pathname];
      if (!body) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => files?.close(resolve)));
  allowPrivateNetwork();
  afterEach(() => {
    Object.assign(h.importLimits, DEFAULT_IMPORT_LIMITS);
  });
  const importFile = (spaceId: string, source: string, path: string, req: { revisionId?: string } = {}, as: TestUser = owner) =>
    importSite(spaceId, { url: `${filesBase}${path}`, source, ...req }, as);
  const titles = (pages: Page[]): unknown[] => pages.map((p) => (p.pages.length ? [p.title, titles(p.pages)] : p.title));

  it('imports a markdown file, an HTML page and a .docx document as one page each', async () => {
    for (const [source, path, title, text] of [
      ['markdown', '/guide.md', 'Guide', 'Read **this** first.'],
      ['html', '/page.html', 'Page', 'Hello _HTML_.'],
      ['docx', '/notes.docx', 'Release notes', 'Шрифты и 中文 work.'],
    ] as const) {
      const space = await newSpace();
      const res = await importFile(space.id, source, path);
      expect(res).toEqual({ revisionId: expect.any(String), importedResources: 1, totalResources: 1 });
      const revision = await getRevision(space.id);
      expect(revision.id).toBe(res.revisionId);
      expect(revision.pages.map((p) => p.title)).toEqual([title]);
      expect((await getPage(space.id, revision.pages[0]!.id)).markdown).toBe(`${text}\n`);
    }
  });

  it('imports a Notion export as nested pages with their images, and a Confluence export', async () => {
    const space = await newSpace();
    const res = await importFile(space.id, 'notion', '/notion.zip');
    expect(res).toEqual({ revisionId: expect.any(String), importedResources: 3, totalResources: 3 });
    const revision = await getRevision(space.id);
    expect(titles(revision.pages)).toEqual([['Home', ['Child']]]);
    expect(revision.files.map((f) => [f.name, f.contentType, Number(f.size)])).toEqual([['diagram.png', 'image/png', PNG.length]]);
    const blob = await h.callContent<ReadBlobRequest, ReadBlobResponse>(h.spaceContent.readBlob, { blob: revision.files[0]!.blob }, owner.id);
    expect(Buffer.from(blob.data).equals(PNG)).toBe(true);
    const home = (await getPage(space.id, revision.pages[0]!.id)).markdown!;
    expect(home).toContain(`[Child](/pages/${revision.pages[0]!.pages[0]!.id})`);
    expect(home).toContain('diagram.png');

    const other = await newSpace();
    await importFile(other.id, 'confluence', '/confluence.zip');
    expect(titles((await getRevision(other.id)).pages)).toEqual(['Start']);
  });

  it('imports a ZIP of a GitBook folder: SUMMARY.md’s tree, front matter, links and assets as files', async () => {
    const space = await newSpace();
    const res = await importFile(space.id, 'zip', '/gitbook.zip');
    // 4 pages, the "Reference" group, the asset and the included file, of the archive's 7 files.
    expect(res).toEqual({ revisionId: expect.any(String), importedResources: 7, totalResources: 7 });
    const revision = await getRevision(space.id);
    expect(revision.id).toBe(res.revisionId);
    expect(titles(revision.pages)).toEqual(['Handbook', ['Setup', ['Linux']], ['Reference', ['API']]]);
    const [handbook, setup, reference] = revision.pages as [Page, Page, Page];
    const linux = setup.pages[0]!;
    expect([handbook.description, linux.emoji, reference.type, setup.slug, linux.slug]).toEqual(['All we know', '🐧', 'group', 'setup', 'linux']);
    expect(revision.files.map((f) => [f.name, f.contentType, Number(f.size)])).toEqual([['shot.png', 'image/png', PNG.length]]);
    const shot = revision.files[0]!;
    const blob = await h.callContent<ReadBlobRequest, ReadBlobResponse>(h.spaceContent.readBlob, { blob: shot.blob }, owner.id);
    expect(Buffer.from(blob.data).equals(PNG)).toBe(true);
    expect((await getPage(space.id, handbook.id)).markdown).toBe(`Start with [Linux](/pages/${linux.id}#install).\n`);
    expect((await getPage(space.id, linux.id)).markdown).toBe(`## Install\n\n![shot](/files/${shot.id})\n`);
    const [note] = revision.reusableContents;
    expect(revision.reusableContents).toEqual([{ id: note!.id, title: 'Note', documentId: expect.any(String), markdown: `See the [handbook](/pages/${handbook.id}).\n` }]);
    expect((await getPage(space.id, reference.pages[0]!.id)).markdown).toBe(`The [handbook](/pages/${handbook.id}).\n\n{% include "${note!.id}" %}\n`);
    const links = await h.callContent<ListLinksRequest, ListLinksResponse>(h.spaceContent.listLinks, { spaceId: space.id, revisionId: '', pageId: '', status: 'broken' }, owner.id);
    expect(links.stats?.broken).toBe(0);

    // No SUMMARY.md: the folders make the tree, each README.md its folder's page.
    const other = await newSpace();
    await importFile(other.id, 'zip', '/folders.zip');
    expect(titles((await getRevision(other.id)).pages)).toEqual(['Home', ['Guide', ['Start']]]);
  });

  // Attacks on the zip source: nothing is written, and the answer names what was refused.
  it('refuses a ZIP compressed past the ratio, a lying bomb, and entries out of the folder or in .git', async () => {
    const space = await newSpace();
    await rejects(
      importFile(space.id, 'zip', '/zip-ratio.zip'),
      status.INVALID_ARGUMENT,
      /^url: the archive is refused: entry "zeros\.md" is compressed more than 100 to 1 \(the limit\)/,
    );
    await rejects(
      importFile(space.id, 'zip', '/bomb.zip'),
      status.INVALID_ARGUMENT,
      /^url: the archive is refused: entry "bomb\.md" cannot be read \(too many bytes in the stream/,
    );
    await rejects(importFile(space.id, 'zip', '/zip-traversal.zip'), status.INVALID_ARGUMENT, /^url: the archive is refused: .*\.\.\/\.\.\/\.github\/workflows\/x\.yml/);
    await rejects(
      importFile(space.id, 'zip', '/zip-git.zip'),
      status.INVALID_ARGUMENT,
      /^url: the archive is refused: entry "\.git\/hooks\/post-checkout" is inside a \.git folder/,
    );
    h.importLimits.maxTotalBytes = 100;
    await rejects(importFile(space.id, 'zip', '/gitbook.zip'), status.INVALID_ARGUMENT, /^url: the archive is refused: it inflates to more than 100 bytes \(the limit\)/);
    await rejects(importFile(space.id, 'zip', '/guide.md'), status.INVALID_ARGUMENT, /^url: not a readable ZIP archive/);
    expect((await getRevision(space.id)).pages).toEqual([]);
  });

  it('with a revision (a change request), builds on it and leaves the space alone', async () => {
    const space = await newSpace();
    const before = await getRevision(space.id);
    const res = await importFile(space.id, 'markdown', '/guide.md', { revisionId: before.id });
    expect((await getRevision(space.id)).id).toBe(before.id);
    expect((await getRevision(space.id, res.revisionId)).parents).toEqual([before.id]);
  });

  it('refuses readers and other organizations before fetching anything', async () => {
    const space = await newSpace();
    const stranger = await orgs.user('stranger');
    await orgs.organization(stranger, [], 'Elsewhere');
    const before = hits;
    await rejects(importFile(space.id, 'markdown', '/guide.md', {}, reader), status.PERMISSION_DENIED, /editors/);
    await rejects(importFile(space.id, 'markdown', '/guide.md', {}, stranger), status.NOT_FOUND);
    expect(hits).toBe(before);
  });

  // Attacks: nothing is written, and the answer names the limit.
  it('refuses a lying ZIP bomb, a ../ entry, too many entries, a file too large, a missing file and bytes of the wrong kind', async () => {
    const space = await newSpace();
    await rejects(
      importFile(space.id, 'notion', '/bomb.zip'),
      status.INVALID_ARGUMENT,
      /url: the archive is refused: entry "bomb.md" cannot be read \(too many bytes in the stream/,
    );
    await rejects(importFile(space.id, 'notion', '/evil.zip'), status.INVALID_ARGUMENT, /url: the archive is refused: .*\.\.\/\.\.\/etc\/evil\.md/);
    h.importLimits.maxEntries = 2;
    await rejects(importFile(space.id, 'notion', '/notion.zip'), status.INVALID_ARGUMENT, /3 entries, more than 2 \(the limit\)/);
    h.importLimits.maxEntries = DEFAULT_IMPORT_LIMITS.maxEntries;
    expect(FILES['/notion.zip']!.length).toBeGreaterThan(200);
    h.importLimits.maxDownloadBytes = 200;
    await rejects(importFile(space.id, 'notion', '/notion.zip'), status.INVALID_ARGUMENT, /url: .*\/notion\.zip is larger than 200 bytes/);
    h.importLimits.maxDownloadBytes = DEFAULT_IMPORT_LIMITS.maxDownloadBytes;
    await rejects(importFile(space.id, 'markdown', '/missing.md'), status.INVALID_ARGUMENT, /url: .*\/missing\.md answered 404/);
    await rejects(importFile(space.id, 'docx', '/guide.md'), status.INVALID_ARGUMENT, /url: not a readable ZIP archive/);
    await rejects(importFile(space.id, 'confluence', '/notion.zip'), status.INVALID_ARGUMENT, /no pages/);
    expect((await getRevision(space.id)).pages).toEqual([]);
  });
});
