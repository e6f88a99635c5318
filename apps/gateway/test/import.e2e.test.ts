import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { docx, lyingBomb, para, zip } from '@quire/content/testing';
import { startGitServer } from '@quire/git-sync/testing';
import type { TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/policy';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Gateway } from './harness.ts';
import { gatewayWithTenant } from './fixtures.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** A GitBook folder: SUMMARY.md with a group, front matter, links between pages, an asset, a link page. */
const DOCS: Record<string, string | Buffer> = {
  'SUMMARY.md':
    '# Table of contents\n\n* [Handbook](README.md)\n* [Setup](setup/README.md)\n  * [Linux](setup/linux.md)\n  * [Linux install](setup/linux.md#install)\n* [Status](https://status.example.com)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'README.md': '---\ndescription: All we know\n---\n\n# Handbook\n\nStart with [Linux](setup/linux.md#install), then the [API](reference/api.md).\n',
  'setup/README.md': '# Setup\n\n{% hint style="info" %}\nRead it all.\n{% endhint %}\n',
  'setup/linux.md': '---\nicon: linux\n---\n\n# Linux\n\n## Install\n\n![shot](../.gitbook/assets/shot.png)\n',
  'reference/api.md': '# API reference\n\nBack to the [handbook](../README.md).\n',
  '.gitbook/assets/shot.png': PNG,
};

const SITE: Record<string, string | Buffer> = {
  '/files/docs.zip': zip(Object.fromEntries(Object.entries(DOCS).map(([path, data]) => [`handbook/${path}`, data]))),
  '/files/traversal.zip': zip({ 'README.md': '# Home\n', 'x/../../../.github/workflows/pwn.yml': 'on: push\n' }),
  '/files/guide.md': '# Guide\n\nRead **this** first.\n',
  '/files/notes.docx': docx(para('Release notes', 'Heading1') + para('Из Word.')),
  '/files/notion.zip': zip({ 'Home 11111111111111111111111111111111.md': '# Home\n\nNotion text.\n' }),
  '/files/bomb.zip': lyingBomb(),
  '/': '<html><head><title>Start | Site</title></head><body><h1>Start</h1><p>Go to <a href="/next">the next page</a>.</p></body></html>',
  '/next': '<html><head><title>Next | Site</title></head><body><p>The end. Back to <a href="/">start</a>.</p></body></html>',
};

let site: Server;
let base: string;
let g: Gateway, owner: TestUser, reader: TestUser, outsider: TestUser, orgId: string;

beforeAll(async () => {
  site = createServer((req, res) => {
    const body = SITE[req.url!];
    if (body) res.writeHead(200, { 'content-type': typeof body === 'string' && !req.url!.startsWith('/files/') ? 'text/html' : 'application/octet-stream' }).end(body);
    else res.writeHead(404).end();
  });
  // On the private host the shared stack may reach; 127.0.0.1 stays refused.
  await new Promise<void>((resolve) => site.listen(0, TEST_PRIVATE_HOST, resolve));
  base = `http://${TEST_PRIVATE_HOST}:${(site.address() as AddressInfo).port}`;
  ({ g, owner, reader, outsider, orgId } = await gatewayWithTenant({ QUIRE_PUBLIC_URL: 'http://quire.test' }, { reader: Role.ROLE_READ }));
});
afterAll(async () => {
  await g?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

/** Waits for the space's Git import to be done. */
async function gitImported(spaceId: string) {
  for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const state = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/info`)).json().job?.state;
    if (state === 'done') return;
    if (state === 'failed') throw new Error('the Git import failed');
  }
  throw new Error('the Git import did not finish');
}

/** What differs between two spaces of the same content: ids, addresses and times. */
const PER_SPACE = new Set(['id', 'pages', 'urls', 'createdAt', 'updatedAt', 'documentId']);

interface OutlinePage {
  type: string;
  title: string;
  [key: string]: unknown;
}

/** The space's content without its ids: pages with their fields and markdown (ids named by title), files by name. */
async function outline(spaceId: string) {
  const revision = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json();
  const names = new Map<string, string>();
  const walk = (pages: { id: string; title: string; pages?: unknown[] }[]) => pages.forEach((p) => (names.set(p.id, `page:${p.title}`), walk((p.pages ?? []) as typeof pages)));
  walk(revision.pages);
  for (const f of revision.files) names.set(f.id, `file:${f.name}`);
  const unId = (text: string) => text.replace(/\/(pages|files)\/([\w-]+)/g, (all, _kind, id: string) => (names.has(id) ? `<${names.get(id)}>` : all));
  const page = async (p: Record<string, unknown>): Promise<OutlinePage> => {
    const { id, pages } = p as { id: string; pages?: Record<string, unknown>[] };
    const fields = Object.fromEntries(Object.entries(p).filter(([key]) => !PER_SPACE.has(key)));
    const markdown = fields.type === 'document' ? (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/page/${id}?format=markdown`)).json().markdown : undefined;
    // Links (href, target) name pages by id too.
    const named = JSON.parse(unId(JSON.stringify(fields))) as OutlinePage;
    return { ...named, ...(markdown !== undefined ? { markdown: unId(markdown) } : {}), pages: await Promise.all((pages ?? []).map(page)) };
  };
  return {
    pages: await Promise.all(revision.pages.map(page)),
    files: revision.files.map((f: { name: string; contentType: string; size: number }) => ({ name: f.name, contentType: f.contentType, size: f.size })),
  };
}

const newSpace = async () => (await g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Imported' })).json().id as string;

describe('POST /v1/spaces/{spaceId}/content/import', () => {
  it('imports the site as the space content and answers 201 with the revision', async () => {
    const spaceId = await newSpace();
    const res = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, { url: `${base}/`, source: 'website' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({ revision: expect.any(String), importedResources: 2, totalResources: 2 });
    expect(res.headers.location).toBe(`http://quire.test/v1/spaces/${spaceId}/revisions/${body.revision}`);
    const content = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json();
    expect(content.id).toBe(body.revision);
    expect(content.pages.map((p: { title: string }) => p.title)).toEqual(['Start', 'Next']);
  });

  it('refuses private addresses the settings do not list, naming the url', async () => {
    const spaceId = await newSpace();
    const unlisted = base.replace(TEST_PRIVATE_HOST, '127.0.0.1');
    expectError(
      await g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, { url: `${unlisted}/`, source: 'website' }),
      400,
      /^url: "127\.0\.0\.1" resolves to 127\.0\.0\.1/,
    );
  });

  it('validates the body: url, source, and the sources not supported', async () => {
    const spaceId = await newSpace();
    const post = (body: unknown) => g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, body);
    expectError(await post({ source: 'website' }), 400, /url/);
    expectError(await post({ url: 'not a url', source: 'website' }), 400, /url/);
    expectError(await post({ url: `${base}/` }), 400, /source/);
    expectError(await post({ url: `${base}/`, source: 'fax' }), 400, /source/);
    expectError(await post({ url: `${base}/`, source: 'google-docs' }), 400, /source: "google-docs" imports are not supported/);
    expectError(await post({ url: `${base}/`, source: 'github-wiki' }), 400, /source: "github-wiki" imports are not supported/);
  });

  it('imports a markdown file, a Word document and a Notion export, answering 201 with the revision', async () => {
    for (const [source, path, title] of [
      ['markdown', '/files/guide.md', 'Guide'],
      ['docx', '/files/notes.docx', 'Release notes'],
      ['notion', '/files/notion.zip', 'Home'],
    ] as const) {
      const spaceId = await newSpace();
      const res = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, { url: `${base}${path}`, source });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 });
      const content = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json();
      expect(content.id).toBe(res.json().revision);
      expect(content.pages.map((p: { title: string }) => p.title)).toEqual([title]);
    }
  });

  it('imports a ZIP of a Markdown folder as a Git import of the same files makes it, answering 201 with the revision', async () => {
    const repos = await startGitServer();
    try {
      await repos.create('handbook', DOCS);
      const [fromGit, fromZip] = [await newSpace(), await newSpace()];
      expect((await g.call(owner, 'POST', `/v1/spaces/${fromGit}/git/import`, { url: repos.url('handbook'), ref: 'refs/heads/main' })).statusCode).toBe(204);
      const started = performance.now();
      const res = await g.call(owner, 'POST', `/v1/spaces/${fromZip}/content/import`, { url: `${base}/files/docs.zip`, source: 'zip' });
      expect(res.statusCode, res.body).toBe(201);
      // 5 pages, the link page, the group and the asset, of the archive's 6 files.
      expect(res.json()).toEqual({ revision: expect.any(String), importedResources: 8, totalResources: 6 });
      expect(res.headers.location).toBe(`http://quire.test/v1/spaces/${fromZip}/revisions/${res.json().revision}`);
      expect(performance.now() - started).toBeLessThan(10_000);
      await gitImported(fromGit);

      const [git, zipped] = [await outline(fromGit), await outline(fromZip)];
      expect(zipped.pages).toEqual(git.pages);
      expect(zipped.files).toEqual(git.files);
      expect(zipped.pages).toMatchObject([
        { title: 'Handbook', description: 'All we know', markdown: 'Start with [Linux](<page:Linux>#install), then the [API](<page:API>).\n' },
        {
          title: 'Setup',
          pages: [
            { title: 'Linux', icon: 'linux', markdown: '## Install\n\n![shot](<file:shot.png>)\n' },
            { type: 'link', title: 'Linux install' },
          ],
        },
        { type: 'link', title: 'Status', href: 'https://status.example.com' },
        { type: 'group', title: 'Reference', pages: [{ title: 'API', slug: 'api' }] },
      ]);
      expect(zipped.files).toEqual([{ name: 'shot.png', contentType: 'image/png', size: PNG.length }]);
    } finally {
      await repos.stop();
    }
  });

  it('refuses a ZIP with an entry climbing out of its folder (400 naming it), writing nothing', async () => {
    const spaceId = await newSpace();
    expectError(
      await g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, { url: `${base}/files/traversal.zip`, source: 'zip' }),
      400,
      /^url: the archive is refused: .*x\/\.\.\/\.\.\/\.\.\/\.github\/workflows\/pwn\.yml/,
    );
    expect((await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json().pages).toEqual([]);
  });

  it('imports a file into a change request, leaving the space alone', async () => {
    const spaceId = await newSpace();
    const before = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json().id;
    const cr = (await g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Import' })).json();
    const res = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/import`, { url: `${base}/files/guide.md`, source: 'markdown' });
    expect(res.statusCode, res.body).toBe(201);
    expect((await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json().id).toBe(before);
    const pages = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`)).json().pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Guide']);
    // A Markdown folder's ZIP too: the change request's content becomes the folder's.
    const zipped = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/import`, { url: `${base}/files/docs.zip`, source: 'zip' });
    expect(zipped.statusCode, zipped.body).toBe(201);
    expect(zipped.json()).toEqual({ revision: expect.any(String), importedResources: 8, totalResources: 6 });
    const after = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`)).json();
    expect(after.id).toBe(zipped.json().revision);
    expect(after.pages.map((p: { title: string }) => p.title)).toEqual(['Handbook', 'Setup', 'Status', 'Reference']);
    expect((await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json().id).toBe(before);
  });

  it('refuses readers (403) and other organizations (404), and a ZIP bomb naming what was wrong', async () => {
    const spaceId = await newSpace();
    const body = { url: `${base}/files/guide.md`, source: 'markdown' };
    expectError(await g.call(reader, 'POST', `/v1/spaces/${spaceId}/content/import`, body), 403);
    expectError(await g.call(outsider, 'POST', `/v1/spaces/${spaceId}/content/import`, body), 404);
    expectError(
      await g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, { url: `${base}/files/bomb.zip`, source: 'notion' }),
      400,
      /^url: the archive is refused: entry "bomb\.md" cannot be read/,
    );
    expect((await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json().pages).toEqual([]);
  });
});
