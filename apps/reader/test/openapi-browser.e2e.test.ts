import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ok } from '@quire/gateway/testing';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { page, spaceWith, startReader } from './harness.ts';
import { githubSpec, readmeExample } from './real-specs.ts';

// An API reference page in Debian's Chromium: the operation's parameters, body, responses and code
// samples in view, and "Test it" sending a request through the reader to an API this file serves
// on the private host the stack may reach; one to 127.0.0.1 is refused. Then published specs:
// Swagger 2.0's petstore (its host this file's API) and GitHub's REST API (13 MB). Skipped as
// the reader's other browser tests are when Chromium is missing.
const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);

describe.skipIf(!present && !process.env.CI)('API operations in Chromium', () => {
  let h: Awaited<ReturnType<typeof startReader>>;
  let browser: Browser;
  let api: Server;
  let inside: Server;
  let insideHits = 0;
  let url: string;
  let publishedUrl: string;
  const at = (s: Server) => `http://${(s.address() as AddressInfo).address}:${(s.address() as AddressInfo).port}`;
  const specOn = (server: string) => {
    const spec = parse(readFileSync(new URL('./fixtures/things-3.0.yaml', import.meta.url), 'utf8'));
    spec.servers = [{ url: `${server}/v1` }];
    return Buffer.from(stringify(spec));
  };

  beforeAll(async () => {
    if (!present) throw new Error(`${CHROMIUM} is missing: CI must install chromium (.ci/run)`);
    process.env.QUIRE_PRIVATE_HOSTS = TEST_PRIVATE_HOST;
    api = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () =>
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 7, auth: req.headers.authorization, got: JSON.parse(body || '{}') })),
      );
    });
    await new Promise<void>((r) => api.listen(0, TEST_PRIVATE_HOST, r));
    inside = createServer((_req, res) => (insideHits++, res.end('inside')));
    await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));

    h = await startReader();
    await h.reader.app.listen({ host: '127.0.0.1', port: 0 });
    const origin = `http://127.0.0.1:${(h.reader.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    const owner = await h.g.orgs.user('owner');
    const orgId = (await h.g.orgs.organization(owner, [])).id;
    const call = (method: 'POST', path: string, body?: unknown, status = 200) => ok(h.g.call(owner, method, `/v1/orgs/${orgId}${path}`, body), status);
    const block = (file: string, path: string, method: string) => `{% openapi src="${file}" path="${path}" method="${method}" %}\n[${file}](${file})\n{% endopenapi %}`;
    const spaceId = await spaceWith(
      h.g,
      owner,
      orgId,
      'API',
      [
        page('Things', [block('things.yaml', '/things', 'post'), block('things.yaml', '/things', 'get'), block('local.yaml', '/things', 'get')].join('\n\n')),
        page('Published', [block('petstore.json', '/pet', 'post'), block('github.json', '/repos/{owner}/{repo}/issues', 'post')].join('\n\n')),
      ],
      [
        { id: 'things', name: 'things.yaml', contentType: 'application/yaml', data: specOn(at(api)) },
        { id: 'local', name: 'local.yaml', contentType: 'application/yaml', data: specOn(at(inside)) },
        {
          id: 'petstore',
          name: 'petstore.json',
          contentType: 'application/json',
          data: Buffer.from(JSON.stringify({ ...JSON.parse(readmeExample('2.0/petstore.json')), host: at(api).slice(7) })),
        },
        { id: 'github', name: 'github.json', contentType: 'application/json', data: Buffer.from(githubSpec()) },
      ],
    );
    const site = await call('POST', '/sites', { title: 'API Docs', spaces: [spaceId] }, 201);
    await call('POST', `/sites/${site.id}/publish`);
    url = `${origin}/${orgId}/${site.id}/things`;
    publishedUrl = `${origin}/${orgId}/${site.id}/published`;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
    api?.close();
    inside?.close();
  });

  it('shows parameters, body, responses and code samples, and Test it sends the request and shows the answer', async () => {
    const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    expect((await p.goto(url))?.status()).toBe(200);
    const ops = p.locator('.oa-op');
    const [post, list, local] = [ops.nth(0), ops.nth(1), ops.nth(2)];
    await expect(post.locator('.oa-op-head').textContent()).resolves.toBe('POST /things');
    expect(await post.getByText('Body', { exact: false }).first().isVisible()).toBe(true);
    expect(await post.locator('.oa-fields .oa-name', { hasText: 'shape' }).first().isVisible()).toBe(true);
    expect(await post.locator('.oa-response', { hasText: '201' }).isVisible()).toBe(true);
    expect(await post.locator('.oa-sample[open] pre').first().isVisible()).toBe(true);
    await expect(post.locator('.oa-sample[open] pre').first().textContent()).resolves.toContain('client.Things.Create');
    const curl = post.locator('.oa-sample', { hasText: 'cURL' });
    await curl.locator('summary').click();
    expect(await curl.locator('pre').isVisible()).toBe(true);
    await expect(curl.locator('pre').textContent()).resolves.toContain('curl -X POST');
    expect(await list.locator('.oa-name', { hasText: 'limit' }).first().isVisible()).toBe(true);

    await post.locator('.oa-try summary').click();
    await post.locator('input[data-name="Authorization"]').fill('Bearer from-browser');
    await post.locator('.oa-try textarea').fill('{"name":"desk","shape":{"kind":"circle","radius":1}}');
    await post.getByRole('button', { name: 'Send' }).click();
    await p.waitForFunction(() => document.querySelector('.oa-answer pre')?.textContent?.includes('"id": 7'));
    const answer = await post.locator('.oa-answer').textContent();
    expect(answer).toContain('201 application/json');
    expect(answer).toContain('"auth": "Bearer from-browser"');
    expect(answer).toContain('"name": "desk"');

    await local.locator('.oa-try summary').click();
    await local.getByRole('button', { name: 'Send' }).click();
    await p.waitForFunction(() => document.querySelectorAll('.oa-op')[2]?.querySelector('.oa-answer')?.textContent?.startsWith('Not sent'));
    await expect(local.locator('.oa-answer').textContent()).resolves.toMatch(/^Not sent: .*127\.0\.0\.1, a private or reserved address/);
    expect(insideHits).toBe(0);
    await p.close();
  });
  it('Swagger 2.0 and GitHub’s API: parameters, bodies, responses and code samples in view; Test it reaches the petstore', async () => {
    const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    expect((await p.goto(publishedUrl))?.status()).toBe(200);
    const [pet, issue] = [p.locator('.oa-op').nth(0), p.locator('.oa-op').nth(1)];
    await expect(pet.locator('.oa-op-head').textContent()).resolves.toBe('POST /pet');
    expect(await pet.locator('.oa-fields .oa-name', { hasText: 'photoUrls' }).first().isVisible()).toBe(true);
    expect(await pet.locator('.oa-response', { hasText: '405' }).isVisible()).toBe(true);
    await expect(pet.locator('.oa-sample[open] pre').textContent()).resolves.toContain(`curl -X POST '${at(api)}/v2/pet'`);

    await expect(issue.locator('.oa-op-head').textContent()).resolves.toBe('POST /repos/{owner}/{repo}/issues');
    for (const name of ['owner', 'repo', 'title', 'labels']) expect(await issue.locator('.oa-name', { hasText: name }).first().isVisible()).toBe(true);
    const created = issue.locator('.oa-response', { hasText: '201' });
    expect(await created.isVisible()).toBe(true);
    // The issue's user, drawn collapsed: shown once opened.
    const user = created.locator('.oa-field', { has: p.locator('.oa-name', { hasText: /^user$/ }) }).first();
    await user.locator('.oa-children > summary').first().click();
    expect(await user.locator('.oa-name', { hasText: 'login' }).first().isVisible()).toBe(true);
    await expect(issue.locator('.oa-sample[open] pre').textContent()).resolves.toContain("curl -X POST 'https://api.github.com/repos/");

    await pet.locator('.oa-try summary').click();
    await pet.locator('.oa-try textarea').fill('{"name":"rex","photoUrls":[]}');
    await pet.getByRole('button', { name: 'Send' }).click();
    await p.waitForFunction(() => document.querySelector('.oa-answer pre')?.textContent?.includes('"id": 7'));
    expect(await pet.locator('.oa-answer').textContent()).toContain('"name": "rex"');
    await p.close();
  });
});
