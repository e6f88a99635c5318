import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestUser } from '@quire/orgs/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startGateway } from './harness.ts';

const SITE: Record<string, string> = {
  '/': '<html><head><title>Start | Site</title></head><body><h1>Start</h1><p>Go to <a href="/next">the next page</a>.</p></body></html>',
  '/next': '<html><head><title>Next | Site</title></head><body><p>The end. Back to <a href="/">start</a>.</p></body></html>',
};

let site: Server;
let base: string;
let g: Awaited<ReturnType<typeof startGateway>>;
let owner: TestUser;
let orgId: string;

beforeAll(async () => {
  site = createServer((req, res) => {
    const html = SITE[req.url!];
    if (html) res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  g = await startGateway({ QUIRE_PUBLIC_URL: 'http://quire.test' });
  owner = await g.orgs.user('owner');
  orgId = (await g.orgs.organization(owner, [])).id;
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
    expectError(await post({ url: `${base}/`, source: 'notion' }), 400, /source: "notion" imports are not supported/);
  });
});
