import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ok } from '@quire/gateway/testing';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { page, spaceWith } from './harness.ts';
import { publishedPage, test } from './published.ts';
import { githubSpec, readmeExample } from './real-specs.ts';

// Published specs on a published page: Swagger 2.0's petstore as one of the organization's specs
// (its host this file's API), OpenAPI 3.1's train-travel example at a URL, and GitHub's REST
// API (13 MB) as a file of the space; drawn, written out as markdown, and "Test it" sent to
// the petstore's host.

let api: Server;
const seen: { method: string; url: string; body: string }[] = [];
const hostOf = (s: Server) => `${(s.address() as AddressInfo).address}:${(s.address() as AddressInfo).port}`;

/** The petstore, its host this file's API. */
const petstore = () => JSON.stringify({ ...JSON.parse(readmeExample('2.0/petstore.json')), host: hostOf(api) });

beforeAll(async () => {
  process.env.QUIRE_PRIVATE_HOSTS = TEST_PRIVATE_HOST;
  api = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/train-travel.json') return res.writeHead(200, { 'content-type': 'application/json' }).end(readmeExample('3.1/train-travel.json'));
      seen.push({ method: req.method!, url: req.url!, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 10, got: JSON.parse(body || '{}') }));
    });
  });
  await new Promise<void>((r) => api.listen(0, TEST_PRIVATE_HOST, r));
});
afterAll(() => api.close());

const blocks = () =>
  [
    '# Reference',
    '{% openapi-operation spec="petstore" path="/pet" method="post" %}\n{% endopenapi-operation %}',
    `{% openapi src="http://${hostOf(api)}/train-travel.json" path="/bookings" method="post" %}\n[train travel](http://${hostOf(api)}/train-travel.json)\n{% endopenapi %}`,
    '{% openapi src="github.json" path="/repos/{owner}/{repo}/issues" method="post" %}\n[github.json](github.json)\n{% endopenapi %}',
    '{% openapi src="github.json" path="/repos/{owner}/{repo}/pulls/{pull_number}" method="get" %}\n[github.json](github.json)\n{% endopenapi %}',
  ].join('\n\n');

const fixtures = test.extend<{ published: { base: string; siteSpace: string; pageId: string; spaceId: string } }>({
  published: [
    async ({ reader: { h }, tenant: { owner, orgId } }, use) => {
      await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/openapi`, { slug: 'petstore', source: { text: petstore() } }), 201);
      const file = { id: 'github', name: 'github.json', contentType: 'application/json', data: Buffer.from(githubSpec()) };
      await use(await publishedPage(h, owner, orgId, await spaceWith(h.g, owner, orgId, 'API', [page('Reference', blocks())], [file])));
    },
    { scope: 'file' },
  ],
});

describe('published specs on a page', () => {
  fixtures('Swagger 2.0, OpenAPI 3.1 and GitHub’s API are drawn: parameters, bodies, responses, code samples', async ({ get, published: { base } }) => {
    const res = await get(`${base}/reference`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html.split('class="oa-op"').length - 1).toBe(4);
    expect(html).not.toContain('oa-missing');
    // Swagger 2.0: the body parameter as a body, host and basePath as the server.
    expect(html).toContain(`<code>http://${hostOf(api)}/v2</code>`);
    expect(html).toContain('<code class="oa-name">photoUrls</code>');
    // OpenAPI 3.1 at a URL.
    expect(html).toContain('<code class="oa-path">/bookings</code>');
    expect(html).toContain('<code class="oa-name">trip_id</code>');
    // GitHub: path parameters, the body, the 201 answer, its code samples; the pull request
    // draws its own fields, the users they share with the issue linked to.
    expect(html).toContain('<code class="oa-name">owner</code>');
    expect(html).toContain('<code class="oa-name">assignees</code>');
    expect(html).toContain('>201</span>');
    expect(html).toContain('curl -X POST &#39;https://api.github.com/repos/');
    expect(html).toContain('<code class="oa-name">mergeable</code>');
    expect(html).toMatch(/<a href="#oa-s\d+-\d+">[\w-]+ properties<\/a> shown above/);
    expect(html.length).toBeLessThan(1_000_000);
  });

  fixtures('are written out in the page’s markdown', async ({ get, published: { base } }) => {
    const md = (await get(`${base}/reference.md`)).body;
    expect(md).toContain('### POST /pet');
    expect(md).toContain('### POST /bookings');
    expect(md).toContain('### POST /repos/{owner}/{repo}/issues');
    expect(md).toContain('### GET /repos/{owner}/{repo}/pulls/{pull_number}');
  });

  fixtures('Test it sends the petstore’s operation to its host and shows the answer', async ({ h, published: { base, siteSpace, pageId } }) => {
    const res = await h.reader.app.inject({
      method: 'POST',
      url: `${base}/~gitbook/openapi/proxy`,
      headers: { 'content-type': 'application/json' },
      payload: {
        siteSpace,
        page: pageId,
        block: 0,
        method: 'POST',
        url: `http://${hostOf(api)}/v2/pet`,
        headers: [
          ['Authorization', 'Bearer pets'],
          ['Content-Type', 'application/json'],
        ],
        body: '{"name":"doggie","photoUrls":[]}',
      },
    });
    expect(res.statusCode).toBe(200);
    const answer = JSON.parse(res.body);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ id: 10, got: { name: 'doggie', photoUrls: [] } });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/v2/pet' });
  });

  fixtures('are found by the site’s search and the API’s by path, summary and parameter name', async ({ get, h, owner, published: { base, spaceId } }) => {
    const site = (q: string) => get(`${base}/~search?q=${encodeURIComponent(q)}`, { accept: 'application/json' }).then((r) => JSON.parse(r.body).items);
    expect(await site('pull_number')).toEqual([expect.objectContaining({ title: 'Reference', section: 'GET /repos/{owner}/{repo}/pulls/{pull_number}' })]);
    expect((await site('create an issue'))[0]).toMatchObject({ title: 'Reference', section: 'POST /repos/{owner}/{repo}/issues' });
    const api = await ok(h.g.call(owner, 'GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent('/pet')}`));
    expect(api.items[0].sections[0]).toMatchObject({ title: 'POST /pet', body: expect.stringContaining('Add a new pet to the store') });
  });
});
