import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { docx, lyingBomb, para, zip } from '@quire/content/testing';
import type { TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startGateway } from './harness.ts';

const SITE: Record<string, string | Buffer> = {
  '/files/guide.md': '# Guide\n\nRead **this** first.\n',
  '/files/notes.docx': docx(para('Release notes', 'Heading1') + para('Из Word.')),
  '/files/notion.zip': zip({ 'Home 11111111111111111111111111111111.md': '# Home\n\nNotion text.\n' }),
  '/files/bomb.zip': lyingBomb(),
  '/': '<html><head><title>Start | Site</title></head><body><h1>Start</h1><p>Go to <a href="/next">the next page</a>.</p></body></html>',
  '/next': '<html><head><title>Next | Site</title></head><body><p>The end. Back to <a href="/">start</a>.</p></body></html>',
};

let site: Server;
let base: string;
let g: Awaited<ReturnType<typeof startGateway>>;
let owner: TestUser;
let reader: TestUser;
let outsider: TestUser;
let orgId: string;

beforeAll(async () => {
  site = createServer((req, res) => {
    const body = SITE[req.url!];
    if (body) res.writeHead(200, { 'content-type': typeof body === 'string' && !req.url!.startsWith('/files/') ? 'text/html' : 'application/octet-stream' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  g = await startGateway({ QUIRE_PUBLIC_URL: 'http://quire.test' });
  [owner, reader, outsider] = await Promise.all([g.orgs.user('owner'), g.orgs.user('reader'), g.orgs.user('outsider')]);
  orgId = (await g.orgs.organization(owner, [[reader, Role.ROLE_READ]])).id;
  await g.orgs.organization(outsider, [], 'Elsewhere');
});
afterAll(async () => {
  await g?.stop();
  await new Promise((resolve) => site?.close(resolve));
});
afterEach(() => {
  delete process.env.QUIRE_ALLOW_PRIVATE_NETWORK;
});

const newSpace = async () => (await g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Imported' })).json().id as string;

describe('POST /v1/spaces/{spaceId}/content/import', () => {
  it('imports the site as the space content and answers 201 with the revision', async () => {
    process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'true';
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

  it('refuses private addresses without the flag, naming the url', async () => {
    const spaceId = await newSpace();
    expectError(await g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, { url: `${base}/`, source: 'website' }), 400, /^url: "127\.0\.0\.1" resolves to 127\.0\.0\.1/);
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
    process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'true';
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

  it('imports a file into a change request, leaving the space alone', async () => {
    process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'true';
    const spaceId = await newSpace();
    const before = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json().id;
    const cr = (await g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Import' })).json();
    const res = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/import`, { url: `${base}/files/guide.md`, source: 'markdown' });
    expect(res.statusCode, res.body).toBe(201);
    expect((await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json().id).toBe(before);
    const pages = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`)).json().pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Guide']);
  });

  it('refuses readers (403) and other organizations (404), and a ZIP bomb naming what was wrong', async () => {
    process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'true';
    const spaceId = await newSpace();
    const body = { url: `${base}/files/guide.md`, source: 'markdown' };
    expectError(await g.call(reader, 'POST', `/v1/spaces/${spaceId}/content/import`, body), 403);
    expectError(await g.call(outsider, 'POST', `/v1/spaces/${spaceId}/content/import`, body), 404);
    expectError(await g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, { url: `${base}/files/bomb.zip`, source: 'notion' }), 400, /^url: the archive is refused: entry "bomb\.md" cannot be read/);
    expect((await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json().pages).toEqual([]);
  });
});
