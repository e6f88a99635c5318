import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ok } from '@quire/gateway/testing';
import { OPENAPI_CONSOLE } from '@quire/proto/limits';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parse, stringify } from 'yaml';
import { page, spaceWith, type startReader } from './harness.ts';
import type { TestUser } from '@quire/orgs/testing';
import { publishedPage, test } from './published.ts';

// A published page of API operations: a spec file of the space, a spec at a URL and one of the
// organization's specs, drawn server-side; "Test it" sent through the site's proxy to an API this
// file serves on the private host the stack may reach, and refused anywhere else.

let api: Server;
let inside: Server;
let insideHits = 0;
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
const at = (s: Server) => `http://${(s.address() as AddressInfo).address}:${(s.address() as AddressInfo).port}`;

/** The fixture's spec, its servers the API here, with a path that redirects to a private address. */
function specText(): string {
  const spec = parse(readFileSync(new URL('./fixtures/things-3.0.yaml', import.meta.url), 'utf8'));
  spec.servers = [{ url: `${at(api)}/v1` }];
  spec.paths['/moved'] = { get: { summary: 'Moved', responses: { '302': { description: 'Elsewhere' } } } };
  return stringify(spec);
}

beforeAll(async () => {
  process.env.QUIRE_PRIVATE_HOSTS = TEST_PRIVATE_HOST;
  inside = createServer((_req, res) => (insideHits++, res.end('inside')));
  await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));
  api = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/spec.yaml') return res.end(specText());
      if (req.url === '/v1/moved') return res.writeHead(302, { location: `${at(inside)}/` }).end();
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'api=1', 'x-request-id': 'r1' }).end(JSON.stringify({ id: 7, got: JSON.parse(body || '{}') }));
    });
  });
  await new Promise<void>((r) => api.listen(0, TEST_PRIVATE_HOST, r));
});
afterAll(() => {
  api.close();
  inside.close();
});

const reference = (url: string) =>
  [
    '# Things',
    '',
    '{% openapi src=".gitbook/assets/things.yaml" path="/things" method="post" %}\n[things.yaml](.gitbook/assets/things.yaml)\n{% endopenapi %}',
    `{% openapi src="${url}" path="/things" method="get" %}\n[spec](${url})\n{% endopenapi %}`,
    '{% openapi-operation spec="things" path="/things/{thingId}" method="delete" %}\n{% endopenapi-operation %}',
    '{% openapi src=".gitbook/assets/things.yaml" path="/nowhere" method="get" %}\n[things.yaml](.gitbook/assets/things.yaml)\n{% endopenapi %}',
    '{% openapi-operation spec="missing" path="/x" method="get" %}\n{% endopenapi-operation %}',
    '{% openapi src=".gitbook/assets/things.yaml" path="/moved" method="get" %}\n[things.yaml](.gitbook/assets/things.yaml)\n{% endopenapi %}',
  ].join('\n\n');

const fixtures = test.extend<{ reference: { base: string; siteSpace: string; pageId: string } }>({
  reference: [
    async ({ reader: { h }, tenant: { owner, orgId } }, use) => {
      await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/openapi`, { slug: 'things', source: { text: specText() } }), 201);
      const file = { id: 'spec', name: 'things.yaml', contentType: 'application/yaml', data: Buffer.from(specText()) };
      await use(await publishedPage(h, owner, orgId, await spaceWith(h.g, owner, orgId, 'API', [page('Reference', reference(`${at(api)}/spec.yaml`))], [file])));
    },
    { scope: 'file' },
  ],
});

describe('API operations on a published page', () => {
  fixtures('are drawn from a space file, a URL and an organization spec; what is missing is said, never a 500', async ({ get, reference: { base } }) => {
    const res = await get(`${base}/reference`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<span class="oa-method oa-method-post">POST</span> <code class="oa-path">/things</code>');
    expect(html).toContain('<span class="oa-method oa-method-get">GET</span> <code class="oa-path">/things</code>');
    expect(html).toContain('<code class="oa-path">/things/{thingId}</code> <span class="oa-badge oa-deprecated">Deprecated</span>');
    expect(html).toContain('Thing (recursive)');
    expect(html).toContain('This API operation cannot be shown: the specification has no GET /nowhere operation.');
    expect(html).toContain('This API operation cannot be shown: the organization has no OpenAPI spec “missing”.');
    expect(html).toContain('data-oa-try');
    // Kept, with its ETag: asked again, the same version.
    const again = await get(`${base}/reference`, { 'if-none-match': res.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });

  fixtures('show the organization spec’s new version at once, under a new ETag', async ({ get, h, owner, orgId, reference: { base } }) => {
    const before = await get(`${base}/reference`);
    const changed = specText().replace('summary: Delete a thing', 'summary: Throw a thing away');
    await ok(h.g.call(owner, 'PUT', `/v1/orgs/${orgId}/openapi/things`, { source: { text: changed } }));
    const after = await get(`${base}/reference`, { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContain('Throw a thing away');
    // The space's own file is its revision's: unchanged.
    expect(after.body).toContain('Create a thing');
  });

  fixtures('are written out in the page’s markdown and llms-full.txt', async ({ get, reference: { base } }) => {
    const md = (await get(`${base}/reference.md`)).body;
    expect(md).toContain('### POST /things');
    expect(md).toContain('#### Body (required)');
    expect(md).toContain('- `name` (string, required, example `lamp`)');
    expect(md).toContain('### DELETE /things/{thingId} (deprecated)');
    expect(md).toContain('GET /nowhere: this API operation cannot be shown');
    expect((await get(`${base}/llms-full.txt`)).body).toContain('### GET /things');
  });
});

describe('Spec files of a space', () => {
  /** A space whose page shows `path` of its file `name` holding `text`, and its site (not yet published). */
  async function specSpace(h: Awaited<ReturnType<typeof startReader>>, owner: TestUser, orgId: string, name: string, text: string, path: string) {
    const block = `{% openapi src="${name}" path="${path}" method="get" %}\n[${name}](${name})\n{% endopenapi %}`;
    const spaceId = await spaceWith(h.g, owner, orgId, name, [page('Reference', block)], [{ id: 'spec', name, contentType: 'application/json', data: Buffer.from(text) }]);
    return { spaceId, site: (await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/sites`, { title: name, spaces: [spaceId] }), 201)) as { id: string } };
  }

  /** Waits until the reader has logged reading ahead the spec file `file`. */
  async function readAhead(logged: string[], file: string) {
    const seen = () => logged.some((line) => line.includes('OpenAPI spec read ahead') && line.includes(`"file":"${file}"`));
    for (const deadline = Date.now() + 30_000; !seen();) {
      if (Date.now() > deadline) throw new Error(`${file} was not read ahead`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  fixtures('are read ahead when their site is published, before its first page view', async ({ h, owner, orgId, api: call, get, logged }) => {
    const { site } = await specSpace(h, owner, orgId, 'ahead.yaml', specText().replace('title: Things', 'title: Read ahead'), '/things');
    expect(logged.some((line) => line.includes('"file":"ahead.yaml"'))).toBe(false);
    await call('POST', `/sites/${site.id}/publish`);
    await readAhead(logged, 'ahead.yaml');
    expect((await get(`/${orgId}/${site.id}/reference`)).body).toContain('<span class="oa-method oa-method-get">GET</span> <code class="oa-path">/things</code>');
  });

  fixtures('are read ahead when a site behind visitor auth is published, which still refuses a visitor without a token', async ({ h, owner, orgId, api: call, get, logged }) => {
    const { site } = await specSpace(h, owner, orgId, 'private.yaml', specText().replace('title: Things', 'title: Private'), '/things');
    await call('PATCH', `/sites/${site.id}`, { visibility: 'visitor-auth' });
    await call('POST', `/sites/${site.id}/publish`);
    await readAhead(logged, 'private.yaml');
    const refused = await get(`/${orgId}/${site.id}/reference`);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).not.toContain('/things');
  });

  fixtures('are read ahead when a change request is merged into a space the reader serves', async ({ h, owner, orgId, api: call, get, logged }) => {
    const { site, spaceId } = await specSpace(h, owner, orgId, 'before.yaml', specText().replace('title: Things', 'title: Before'), '/things');
    await call('POST', `/sites/${site.id}/publish`);
    expect((await get(`/${orgId}/${site.id}/reference`)).statusCode).toBe(200);
    const cr = `/v1/spaces/${spaceId}/change-requests/${(await ok(h.g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Spec' }), 201)).number}`;
    const base64 = Buffer.from(specText().replace('title: Things', 'title: Merged')).toString('base64');
    await ok(h.g.call(owner, 'POST', `${cr}/content`, { changes: [{ operation: 'insert_files', files: [{ name: 'merged.yaml', contentType: 'application/yaml', base64 }] }] }));
    expect(logged.some((line) => line.includes('"file":"merged.yaml"'))).toBe(false);
    await ok(h.g.call(owner, 'POST', `${cr}/merge`));
    await readAhead(logged, 'merged.yaml');
  });
});

describe('Search', () => {
  fixtures(
    'finds the operations of specs given by URL: an organization spec saved from one, and a block naming that URL',
    async ({ h, owner, orgId, api: call, spaceWith: newSpace, publishedSite, get }) => {
      const url = `${at(api)}/spec.yaml`;
      await call('POST', '/openapi', { slug: 'things-by-url', source: { url } }, 201);
      const spaceId = await newSpace('By URL', [
        page('Removal', '{% openapi-operation spec="things-by-url" path="/things/{thingId}" method="delete" %}\n{% endopenapi-operation %}'),
        page('Listing', `{% openapi src="${url}" path="/things" method="get" %}\n[spec](${url})\n{% endopenapi %}`),
      ]);
      const site = await publishedSite([spaceId]);
      const spaceSearch = async (q: string) => (await ok(h.g.call(owner, 'GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(q)}`))).items;
      expect((await spaceSearch('delete a thing'))[0]).toMatchObject({
        title: 'Removal',
        sections: [{ title: 'DELETE /things/{thingId}', body: 'Delete a thing\nParameters: thingId' }],
      });
      expect((await spaceSearch('list things'))[0]).toMatchObject({ title: 'Listing', sections: [{ title: 'GET /things', body: expect.stringMatching(/^List things/) }] });
      const inOrg = (await ok(h.g.call(owner, 'GET', `/v1/orgs/${orgId}/search?query=list%20things`))).items as {
        id: string;
        pages: { title: string; sections: { title: string }[] }[];
      }[];
      expect(inOrg.find((s) => s.id === spaceId)?.pages[0]).toMatchObject({ title: 'Listing', sections: [{ title: 'GET /things' }] });
      const onSite = await get(`/${orgId}/${site.id}/~search?q=delete%20a%20thing`, { accept: 'application/json' });
      expect(onSite.json().items[0]).toMatchObject({ title: 'Removal', section: 'DELETE /things/{thingId}' });
      expect((await get(`/${orgId}/${site.id}/~search?q=list%20things`, { accept: 'application/json' })).json().items[0]).toMatchObject({
        title: 'Listing',
        section: 'GET /things',
      });
    },
  );
});

describe('Test it', () => {
  const send = (h: { reader: { app: { inject: (o: object) => Promise<{ statusCode: number; body: string }> } } }, base: string, body: object) =>
    h.reader.app.inject({ method: 'POST', url: `${base}/~gitbook/openapi/proxy`, headers: { 'content-type': 'application/json', cookie: 'quire_session=secret' }, payload: body });

  fixtures('sends the operation to its server with its headers and body, and shows the answer without cookies', async ({ h, reference: { base, siteSpace, pageId } }) => {
    const res = await send(h, base, {
      siteSpace,
      page: pageId,
      block: 0,
      method: 'POST',
      url: `${at(api)}/v1/things`,
      headers: [
        ['Authorization', 'Bearer t0k'],
        ['Content-Type', 'application/json'],
      ],
      body: '{"name":"lamp"}',
    });
    expect(res.statusCode).toBe(200);
    const answer = JSON.parse(res.body);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ id: 7, got: { name: 'lamp' } });
    expect(answer.headers).toContainEqual(['x-request-id', 'r1']);
    expect(answer.headers.map((x: string[]) => x[0])).not.toContain('set-cookie');
    const got = seen.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/v1/things', body: '{"name":"lamp"}' });
    expect(got.headers.authorization).toBe('Bearer t0k');
    expect(got.headers.cookie).toBeUndefined();
  });

  fixtures(
    'refuses a target outside the servers, a private address, a header the operation does not name, an oversized body',
    async ({ h, reference: { base, siteSpace, pageId } }) => {
      const request = { siteSpace, page: pageId, block: 0, method: 'POST', headers: [], body: '{}' };
      const before = seen.length;
      const outside = await send(h, base, { ...request, url: 'https://example.com/v1/things' });
      expect(outside.statusCode).toBe(403);
      expect(JSON.parse(outside.body).error).toMatch(/not under the operation's servers/);
      const sibling = await send(h, base, { ...request, url: `${at(api)}/v1-other/things` });
      expect(sibling.statusCode).toBe(403);
      const header = await send(h, base, { ...request, url: `${at(api)}/v1/things`, headers: [['Cookie', 'a=b']] });
      expect(header.statusCode).toBe(400);
      expect(JSON.parse(header.body).error).toBe('headers: "Cookie" is not a header of this operation');
      const big = await send(h, base, { ...request, url: `${at(api)}/v1/things`, body: 'x'.repeat(OPENAPI_CONSOLE.requestBytes.max + 1) });
      expect(big.statusCode).toBe(413);
      expect(seen.length).toBe(before);
    },
  );

  fixtures(
    'refuses a private address the spec names, and shows a redirect to one without following it',
    async ({ h, owner, orgId, api: call, spaceWith: newSpace, reference: { base, siteSpace, pageId } }) => {
      const moved = await send(h, base, { siteSpace, page: pageId, block: 5, method: 'GET', url: `${at(api)}/v1/moved`, headers: [] });
      expect(moved.statusCode).toBe(200);
      expect(JSON.parse(moved.body)).toMatchObject({ status: 302, headers: [['location', `${at(inside)}/`]] });
      expect(insideHits).toBe(0);
      // A spec whose server is 127.0.0.1: under its servers, but a private address.
      const local = specText().replace(at(api), at(inside));
      await call('POST', '/openapi', { slug: 'local', source: { text: local } }, 201);
      const spaceId = await newSpace('Local', [page('Local', '{% openapi-operation spec="local" path="/things" method="get" %}\n{% endopenapi-operation %}')]);
      const onLocal = await publishedPage(h, owner, orgId, spaceId);
      const refused = await send(h, onLocal.base, {
        siteSpace: onLocal.siteSpace,
        page: onLocal.pageId,
        block: 0,
        method: 'GET',
        url: `${at(inside)}/v1/things`,
        headers: [],
      });
      expect(refused.statusCode).toBe(403);
      expect(JSON.parse(refused.body).error).toMatch(/127\.0\.0\.1, a private or reserved address/);
      expect(insideHits).toBe(0);
    },
  );
});
