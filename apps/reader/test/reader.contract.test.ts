import { gunzipSync } from 'node:zlib';
import { startGitServer } from '@quire/git-sync/testing';
import { paragraph, text, type DocumentInlineMention } from '@quire/document';
import { startMetricsServer } from '@quire/service-kit';
import { Role } from '@quire/proto/common';
import type { TestUser } from '@quire/orgs/testing';
import { ok } from '@quire/gateway/testing';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, setPages, spaceWith, startReader } from './harness.ts';

type Harness = Awaited<ReturnType<typeof startReader>>;
let h: Harness;
let owner: TestUser;
let orgId: string;
let otherOrg: string;
/** Every line the reader logged: credentials in query strings must not be in any of them. */
const logged: string[] = [];

const get = (url: string, headers: Record<string, string> = {}) => h.reader.app.inject({ method: 'GET', url, headers });
const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown, status = 200) => ok(h.g.call(owner, method, `/v1/orgs/${orgId}${url}`, body), status);

const guide = () => [
  page('Introduction', '# Welcome\n\nStart here. See [the setup](setup.md).\n\n## Install\n\n```js\nconst a = 1;\n```\n\n<script>alert(1)</script>\n\n## Configure\n\nText.'),
  page('Setup', 'Set things up.\n\n### Details\n\nMore.', [page('Advanced', 'Deep dive.')]),
  page('Hidden', 'Not in the menu.', [], { fields: { title: 'Hidden', hidden: true } }),
  page('Docs home', '', [], { type: 'link', href: 'https://example.com/docs', markdown: undefined }),
];

async function publishedSite(spaces: string[], body: Record<string, unknown> = {}) {
  const site = await api('POST', '/sites', { title: 'Acme Docs', spaces, ...body }, 201);
  if (Object.keys(body).length) await api('PATCH', `/sites/${site.id}`, body);
  await api('POST', `/sites/${site.id}/publish`);
  return site as { id: string };
}

beforeAll(async () => {
  h = await startReader({ LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => void logged.push(line) } });
  owner = await h.g.orgs.user('owner');
  orgId = (await h.g.orgs.organization(owner, [])).id;
  const outsider = await h.g.orgs.user('outsider');
  otherOrg = (await h.g.orgs.organization(outsider, [[owner, Role.ROLE_ADMIN]], 'Other')).id;
}, 120_000);
afterAll(() => h?.stop());

describe('serving a public site', () => {
  let base: string;
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await spaceWith(h.g, owner, orgId, 'Guide', guide());
    base = `/${orgId}/${(await publishedSite([spaceId])).id}`;
  });

  it('answers the first page at the root with the page tree, outline, pager and metadata', async () => {
    const res = await get(`${base}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const body = res.body;
    expect(body).toContain('<h1>Introduction</h1>');
    expect(body).toMatch(/<a href="[^"]*\/introduction" aria-current="page">Introduction<\/a>/);
    expect(body).toContain(`href="${base}/setup/advanced"`);
    expect(body).not.toContain('>Hidden<');
    expect(body).toContain('<link rel="canonical" href="http://127.0.0.1:8090' + base + '/introduction">');
    expect(body).toContain('<meta property="og:title" content="Introduction | Acme Docs">');
    expect(body).not.toContain('noindex');
    expect(body).toMatch(/<h2 id="install">Install<\/h2>/);
    expect(body).toContain('<a href="#install">Install</a>');
    expect(body).toContain(`<a href="${base}/setup"`);
    expect(body).toMatch(/class="hljs/);
    expect(body).toMatch(/rel="next"><span>Next<\/span>Setup/);
    // Content's HTML is sanitized: no script from a page.
    expect(body).not.toContain('<script>alert');
    expect(body).toContain('&#x3C;script>alert(1)');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
  });

  it('serves nested pages with breadcrumbs and previous/next, and opens link pages at their target', async () => {
    const res = await get(`${base}/setup/advanced`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="[^"]+\/setup">Setup<\/a><\/li><\/ol><\/nav>/);
    expect(res.body).toMatch(/rel="prev"><span>Previous<\/span>Setup/);
    expect((await get(`${base}/hidden`)).statusCode).toBe(200);
    const link = await get(`${base}/docs-home`);
    expect(link.statusCode).toBe(302);
    expect(link.headers.location).toBe('https://example.com/docs');
  });

  it('answers 304 to a revalidation and a new page once the content changes', async () => {
    const first = await get(`${base}/setup`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const again = await get(`${base}/setup`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const pages = guide();
    pages[1] = page('Setup', 'Set things up, now better.', [page('Advanced', 'Deep dive.')]);
    await setPages(h.g, owner, spaceId, pages);
    const changed = await get(`${base}/setup`, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('now better');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('renders a page as the editor wrote it, with what its markdown cannot carry', async () => {
    // Mentioned: a member by name; a user of no concern to the organization, by nothing.
    const stranger = await h.g.orgs.user('stranger-in-mentions');
    const mention = (user: string): DocumentInlineMention => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user } } });
    const pages = (await ok(h.g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/pages`))).pages as { id: string; title: string }[];
    const setup = pages.find((p) => p.title === 'Setup')!.id;
    const document = {
      object: 'document',
      data: {},
      nodes: [
        paragraph([
          text('Wave '),
          { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f44b' } },
          text(' at the '),
          text('red flamingo', [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }]),
          text(' then '),
          { object: 'inline', type: 'button', isVoid: true, data: { label: 'Set up', kind: 'primary', ref: { kind: 'page', page: setup } } },
          text(', ask '),
          mention(owner.id),
          text(' not '),
          mention(stranger.id),
        ]),
      ],
    };
    const cr = await ok(h.g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Rich' }), 201);
    const crPath = `/v1/spaces/${spaceId}/change-requests/${cr.number}`;
    await ok(h.g.call(owner, 'POST', `${crPath}/content`, { changes: [{ operation: 'insert_page', title: 'Rich', document }] }));
    await ok(h.g.call(owner, 'POST', `${crPath}/merge`));
    const res = await get(`${base}/rich`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('<p>Wave 👋 at the <mark class="color-red">red flamingo</mark> then ');
    expect(res.body).toContain(`<a href="${base}/setup" class="button button-primary">Set up</a>`);
    expect(res.body).toContain(`, ask <span class="mention">owner</span> not <span class="mention"></span>`);
    expect(res.body).not.toContain('stranger-in-mentions');
  });

  it('sends the security headers on every answer, HSTS over HTTPS only', async () => {
    for (const res of [await get(`${base}/`), await get('/nosuchorg/x/'), await get(`${base}/robots.txt`)]) {
      expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN' });
      expect(res.headers['referrer-policy']).toBeDefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    // No proxy is trusted (TRUST_PROXY unset): a client claiming HTTPS is not believed. Through a
    // trusted TLS proxy, HSTS is sent: proxy.contract.test.ts.
    expect((await get(`${base}/`, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('counts its requests by route and status on the Prometheus side port', async () => {
    await get(`${base}/`);
    await get('/nosuchorg/x/');
    const side = await startMetricsServer('127.0.0.1', 0);
    try {
      const text = await (await fetch(`http://127.0.0.1:${side.port}/metrics`)).text();
      expect(text).toMatch(/quire_http_request_duration_seconds_count\{method="GET",route="\/\*",status="200"\} [1-9]/);
      expect(text).toMatch(/quire_http_request_duration_seconds_count\{method="GET",route="\/\*",status="404"\} [1-9]/);
    } finally {
      await side.close();
    }
  });

  it('sends pages and assets gzipped to clients that take it, the same bytes once unzipped', async () => {
    const plain = await get(`${base}/setup`);
    const zipped = await get(`${base}/setup`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect((await get(`${base}/setup`, { 'accept-encoding': 'gzip;q=0, identity' })).headers['content-encoding']).toBeUndefined();
    const css = plain.body.match(/href="(\/_reader\/[^"]+\.css)"/)![1]!;
    const asset = await get(css, { 'accept-encoding': 'gzip' });
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(asset.rawPayload).toString()).toBe((await get(css)).body);
  });

  it('answers real 404 pages for missing sites, pages and paths, never a stack trace', async () => {
    for (const url of [`/${orgId}/nosuchsite/`, `/nosuchorg/x/`, `/${otherOrg}/${base.split('/')[2]}/`, `${base}/%2e%2e/%2e%2e/etc`, `${base}/a%2fb`, '/']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Not found');
    }
    const missing = await get(`${base}/no-such-page`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Page not found');
    expect(missing.body).toContain('aria-label="Pages"');
  });

  it('stops answering when the site is unpublished', async () => {
    const other = await publishedSite([await spaceWith(h.g, owner, orgId, 'Temp', [page('One', 'x')])]);
    expect((await get(`/${orgId}/${other.id}/`)).statusCode).toBe(200);
    await api('POST', `/sites/${other.id}/unpublish`);
    expect((await get(`/${orgId}/${other.id}/`)).statusCode).toBe(404);
  });

  it('shows a table cell of the inline HTML GitBook writes as GitBook does, keeping none of an attacker’s markup', async () => {
    // GitBook renders the cell's blocks: its `<p>`s as paragraphs, `<code>` as inline code, a list
    // as a list (RecordColumnValue in GitbookIO/gitbook); never the tags as text.
    const table = [
      '| Option | Description                                                                             |',
      '| ------ | --------------------------------------------------------------------------------------- |',
      "| `type` | <p>Either one of these strings:</p><p><code>'fileManager'</code> - the file manager</p> |",
      '| `evil` | <p style="x" onclick="alert(1)">a</p><script>alert(2)</script><a href="javascript:alert(3)">b</a><img src="x" onerror="alert(4)"> |',
    ].join('\n');
    const space = await spaceWith(h.g, owner, orgId, 'Options', [page('Options', `${table}\n`)]);
    const site = `/${orgId}/${(await publishedSite([space])).id}`;
    const body = (await get(`${site}/options`)).body;
    expect(body).toContain("<td><p>Either one of these strings:</p><p><code>'fileManager'</code> - the file manager</p></td>");
    expect(body).toContain('<td><p>a</p><p>&#x3C;script>alert(2)&#x3C;/script><a>b</a><img src="x" alt="" loading="lazy"></p></td>');
    expect(body).not.toMatch(/onclick|onerror|javascript:|<script>alert/);
    expect((await get(`${site}/options.md`)).body).toContain(table.split('\n')[2]);
  });

  it('serves the machine files: robots, sitemap, page markdown, llms.txt and llms-full.txt', async () => {
    const robots = await get(`${base}/robots.txt`);
    expect(robots.body).toContain(`Sitemap: http://127.0.0.1:8090${base}/sitemap.xml`);
    const sitemap = await get(`${base}/sitemap.xml`);
    expect(sitemap.headers['content-type']).toMatch(/application\/xml/);
    expect(sitemap.body).toContain(`<loc>http://127.0.0.1:8090${base}/setup/advanced</loc>`);
    expect(sitemap.body).not.toContain('/hidden<');
    const md = await get(`${base}/setup/advanced.md`);
    expect(md.headers['content-type']).toMatch(/text\/markdown/);
    expect(md.body).toBe('# Advanced\n\nDeep dive.');
    const llms = await get(`${base}/llms.txt`);
    expect(llms.body).toContain(`- [Advanced](http://127.0.0.1:8090${base}/setup/advanced.md)`);
    const full = await get(`${base}/llms-full.txt`);
    expect(full.body).toContain('Deep dive.');
    expect(full.body).toContain('# Introduction');
  });

  it('searches the site, as JSON for the dialog and as a page without JavaScript', async () => {
    const json = await get(`${base}/~search?q=deep`, { accept: 'application/json' });
    expect(json.json().items).toEqual([expect.objectContaining({ title: 'Advanced', url: `${base}/setup/advanced` })]);
    const page = await get(`${base}/~search?q=deep`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<a href="${base}/setup/advanced">Advanced`);
  });

  it('answers at the site basename and at its custom hostname', async () => {
    const spaceId2 = await spaceWith(h.g, owner, orgId, 'Host', [page('Hello host', 'Hi.')]);
    const site = await publishedSite([spaceId2], { basename: 'handbook', hostname: 'docs.acme.test' });
    expect((await get(`/${orgId}/handbook/`)).body).toContain('<h1>Hello host</h1>');
    const byHost = await get('/hello-host', { host: 'docs.acme.test' });
    expect(byHost.statusCode).toBe(200);
    expect(byHost.body).toContain('<link rel="canonical" href="http://docs.acme.test/hello-host">');
    expect((await get('/', { host: 'unknown.acme.test' })).statusCode).toBe(404);
    const shown = await api('GET', `/sites/${site.id}`);
    expect(shown.urls.published).toBe('https://docs.acme.test');
  });
});

describe('customization', () => {
  it("shows the site's title, logo, accent colour and default theme, with a new ETag when they change, as the published view answers them", async () => {
    const site = await publishedSite([await spaceWith(h.g, owner, orgId, 'Styled', [page('Styled page', 'Hello.')])]);
    const url = `/${orgId}/${site.id}/styled-page`;
    const before = await get(url);
    expect(before.body).toContain('data-theme="light"');
    expect(before.body).toMatch(/<a class="brand" href="[^"]+">Acme Docs<\/a>/);
    const etag = before.headers.etag as string;

    await api('PATCH', `/sites/${site.id}/customization`, {
      title: 'Acme Handbook',
      header: { preset: 'default', links: [], logo: { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo-dark.png' } },
      styling: { ...(await api('GET', `/sites/${site.id}/customization`)).styling, primaryColor: { light: '#0A7D32', dark: '#0A7D32' } },
      themes: { default: 'dark', toggeable: false },
    });
    const after = await get(url, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.body).toContain('<title>Styled page | Acme Handbook</title>');
    expect(after.body).toContain(
      '<img class="logo-light" src="https://cdn.example.com/logo.png" alt=""><img class="logo-dark" src="https://cdn.example.com/logo-dark.png" alt="">Acme Handbook</a>',
    );
    expect(after.body).toContain(':root{--accent:#0a7d32}');
    expect(after.body).toContain('data-theme="dark" data-theme-fixed');
    expect(after.body).not.toContain('data-theme-toggle');

    const published = await api('GET', `/sites/${site.id}/published`);
    expect(published.customizations.site).toMatchObject({ title: 'Acme Handbook', themes: { default: 'dark', toggeable: false }, styling: { primaryColor: { light: '#0A7D32' } } });
    expect(published.customizations.site).toEqual(await api('GET', `/sites/${site.id}/customization`));
  });
});

describe('structure: sections, groups and variants', () => {
  it('shows sections as tabs and site-spaces as variants, default ones at the root', async () => {
    const api1 = await spaceWith(h.g, owner, orgId, 'API v1', [page('Endpoints', 'Version one.')]);
    const api2 = await spaceWith(h.g, owner, orgId, 'API v2', [page('Endpoints', 'Version two.')]);
    const guideSpace = await spaceWith(h.g, owner, orgId, 'Guides', [page('Start', 'Guides start.')]);
    const site = await api('POST', '/sites', { title: 'Sectioned', spaces: [guideSpace] }, 201);
    const section = await api('POST', `/sites/${site.id}/sections`, { spaceId: api1, title: 'API' }, 201);
    await api('POST', `/sites/${site.id}/site-spaces`, { spaceId: api2, sectionId: section.id }, 201);
    await api('POST', `/sites/${site.id}/publish`);
    const base = `/${orgId}/${site.id}`;
    const root = await get(`${base}/`);
    expect(root.statusCode, root.body).toBe(200);
    expect(root.body).toContain('<h1>Start</h1>');
    expect(root.body).toMatch(/<nav class="tabs" aria-label="Sections">.*>API<\/a>/);
    const apiPage = await get(`${base}/${section.path}`);
    expect(apiPage.body).toContain('Version one.');
    expect(apiPage.body).toMatch(/<details class="variants"><summary>API v1/);
    const v2 = apiPage.body.match(/<a href="([^"]+)">API v2<\/a>/)![1]!;
    const second = await get(`${v2}/endpoints`);
    expect(second.body).toContain('Version two.');
    expect((await get(`${base}/${section.path}/api-v1/endpoints`)).body).toContain('Version one.');
  });
});

describe('a space imported from a Git repository', () => {
  let repos: Awaited<ReturnType<typeof startGitServer>>;
  beforeAll(async () => {
    repos = await startGitServer();
  });
  afterAll(() => repos?.stop());

  /** GET git/info until the latest job is over. */
  async function imported(spaceId: string) {
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      const state = (await ok(h.g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/info`))).job?.state;
      if (state === 'done' || state === 'failed') return state;
    }
    throw new Error('the git import did not finish');
  }

  it(".gitbook.yaml's redirects answer 301 to their page's published URL, with the anchor; unknown paths stay a 404 page", async () => {
    await repos.create('moved', {
      '.gitbook.yaml': 'root: ./docs/\n\nredirects:\n  old/install: guide/install.md#linux\n  /help/: README.md\n  установка: guide/install.md\n  gone: guide/removed.md\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n',
      'docs/README.md': '# Welcome\n',
      'docs/guide/README.md': '# Guide\n',
      'docs/guide/install.md': '# Install\n\n## Linux\n\nRun it.\n',
    });
    const spaceId = (await api('POST', '/spaces', { title: 'Moved' }, 201)).id as string;
    await ok(h.g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/import`, { url: repos.url('moved'), ref: 'refs/heads/main' }), 204);
    expect(await imported(spaceId)).toBe('done');
    // The repository's space as a second variant: its URLs carry the site-space's path.
    const first = await spaceWith(h.g, owner, orgId, 'First', [page('Home', 'Home.')]);
    const site = await publishedSite([first, spaceId]);
    const siteSpaces = await api('GET', `/sites/${site.id}/site-spaces`);
    const variant = siteSpaces.items.find((s: { space: { id: string } }) => s.space.id === spaceId).path as string;
    const base = `/${orgId}/${site.id}/${variant}`;

    const install = await get(`${base}/old/install`);
    expect(install.statusCode).toBe(301);
    expect(install.headers.location).toBe(`${base}/guide/install#linux`);
    expect((await get(install.headers.location as string)).body).toContain('<h1>Install</h1>');
    expect((await get(`${base}/help`)).headers.location).toBe(`${base}/welcome`);
    expect((await get(`${base}/${encodeURIComponent('установка')}`)).headers.location).toBe(`${base}/guide/install`);
    // A page that exists wins over a redirect; a redirect to a file that is no page, or no redirect: 404 pages.
    expect((await get(`${base}/guide`)).statusCode).toBe(200);
    for (const path of ['gone', 'old/other', 'old']) {
      const res = await get(`${base}/${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).toContain('Page not found');
    }
    // Another space of the site does not take them.
    expect((await get(`/${orgId}/${site.id}/old/install`)).statusCode).toBe(404);
  });

  it('renders included files in place, nested ones too, stopping at an include of itself; page markdown and llms-full.txt carry the included text', async () => {
    await repos.create('included', {
      '.gitbook.yaml': 'root: ./docs/\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Loop](loop.md)\n',
      'docs/README.md': '# Welcome\n\nBefore.\n\n{% include ".gitbook/includes/steps.md" %}\n\n{% include "../secret.md" %}\n\nAfter.\n',
      'docs/loop.md': '# Loop\n\n{% include ".gitbook/includes/a.md" %}\n\n{% include ".gitbook/includes/self.md" %}\n',
      'docs/.gitbook/includes/steps.md': '---\ntitle: Steps\n---\n\n## Setup steps\n\nRun the installer.\n\n{% include "note.md" %}\n',
      'docs/.gitbook/includes/note.md': '---\ntitle: Note\n---\n\nKeep a *backup*.\n',
      'docs/.gitbook/includes/a.md': 'Alpha text.\n\n{% include "b.md" %}\n',
      'docs/.gitbook/includes/b.md': 'Beta text.\n\n{% include "a.md" %}\n',
      'docs/.gitbook/includes/self.md': 'Self text.\n\n{% include "self.md" %}\n',
      'secret.md': 'Above the docs root.\n',
    });
    const spaceId = (await api('POST', '/spaces', { title: 'Included' }, 201)).id as string;
    await ok(h.g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/import`, { url: repos.url('included'), ref: 'refs/heads/main' }), 204);
    expect(await imported(spaceId)).toBe('done');
    const base = `/${orgId}/${(await publishedSite([spaceId])).id}`;

    const welcome = await get(`${base}/`);
    expect(welcome.statusCode).toBe(200);
    expect(welcome.body).toMatch(/<p>Before\.<\/p><h2 id="setup-steps">Setup steps<\/h2><p>Run the installer\.<\/p><p>Keep a <em>backup<\/em>\.<\/p><p>After\.<\/p>/);
    // Its heading is the page's: in the outline.
    expect(welcome.body).toContain('href="#setup-steps"');
    expect(welcome.body).not.toContain('Above the docs root');
    // A cycle and an include of itself: each text once, the page answered.
    const loop = await get(`${base}/loop`);
    expect(loop.statusCode).toBe(200);
    expect(loop.body.match(/Alpha text\./g)).toHaveLength(1);
    expect(loop.body.match(/Beta text\./g)).toHaveLength(1);
    expect(loop.body.match(/Self text\./g)).toHaveLength(1);
    // Markdown for machines has the included text written in place.
    const md = (await get(`${base}/welcome.md`)).body;
    expect(md).toBe('# Welcome\n\nBefore.\n\n## Setup steps\n\nRun the installer.\n\nKeep a _backup_.\n\n{% include "../secret.md" %}\n\nAfter.\n');
    const full = (await get(`${base}/llms-full.txt`)).body;
    expect(full).toContain('Run the installer.');
    expect(full).toContain('Alpha text.\n\nBeta text.\n\n{% include');
  });
});

describe('access by visibility', () => {
  it('marks unlisted sites noindex', async () => {
    const site = await publishedSite([await spaceWith(h.g, owner, orgId, 'U', [page('Secret-ish', 'x')])], { visibility: 'unlisted' });
    const res = await get(`/${orgId}/${site.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect((await get(`/${orgId}/${site.id}/robots.txt`)).body).toContain('Disallow: /');
  });

  it('opens a share-link site with an active key, keeps it in a cookie, and refuses it once deactivated', async () => {
    const site = await publishedSite([await spaceWith(h.g, owner, orgId, 'S', [page('Shared page', 'x')])], { visibility: 'share-link' });
    const base = `/${orgId}/${site.id}`;
    const none = await get(`${base}/`);
    expect(none.statusCode).toBe(401);
    expect(none.body).toContain('shared by link');
    expect((await get(`${base}/?shareKey=wrong`)).statusCode).toBe(403);
    const link = await api('POST', `/sites/${site.id}/share-links`, { name: 'Partners' }, 201);
    expect(link.urls.published).toMatch(new RegExp(`^http://127.0.0.1:8090/${orgId}/${site.id}\\?shareKey=`));
    const key = new URL(link.urls.published).searchParams.get('shareKey')!;
    const first = await get(`${base}/?shareKey=${key}`);
    expect(first.statusCode).toBe(200);
    expect(logged.filter((l) => l.includes(`${base}/?shareKey=`)).map((l) => JSON.parse(l).req.url)).toContain(`${base}/?shareKey=[redacted]`);
    expect(logged.join('\n')).not.toContain(key);
    const set = [first.headers['set-cookie']].flat().find((c) => c!.startsWith('quire_share='))!;
    expect(set).toMatch(new RegExp(`^quire_share=${key}; Path=${base}; HttpOnly; SameSite=Lax`));
    const withCookie = await get(`${base}/shared-page`, { cookie: `quire_share=${key}` });
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.headers['cache-control']).toBe('private, no-cache');
    await api('PATCH', `/sites/${site.id}/share-links/${link.id}`, { active: false });
    const after = await get(`${base}/shared-page`, { cookie: `quire_share=${key}` });
    expect(after.statusCode).toBe(403);
    expect(after.body).toContain('no longer works');
  });

  it('lets visitors in with a JWT signed with the site key, and its claims drive conditioned content', async () => {
    const open = await spaceWith(h.g, owner, orgId, 'Everyone', [page('Open page', 'x')]);
    const beta = await spaceWith(h.g, owner, orgId, 'Beta', [page('Beta page', 'y')]);
    const site = await api('POST', '/sites', { title: 'Members', spaces: [open] }, 201);
    await api('PATCH', `/sites/${site.id}`, { visibility: 'visitor-auth' });
    const added = await api('POST', `/sites/${site.id}/site-spaces`, { spaceId: beta }, 201);
    await api('PATCH', `/sites/${site.id}/site-spaces/${added.id}`, { condition: 'visitor.claims.beta === true' });
    await api('POST', `/sites/${site.id}/publish`);
    const auth = await api('GET', `/sites/${site.id}/publishing/auth`);
    expect(auth).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const base = `/${orgId}/${site.id}`;
    const sign = (claims: Record<string, unknown>, key = auth.privateKey as string) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(key));

    expect((await get(`${base}/`)).statusCode).toBe(401);
    const plain = await get(`${base}/?jwt_token=${await sign({})}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.body).not.toContain('>Beta<');
    const withClaim = await get(`${base}/?jwt_token=${await sign({ beta: true })}`);
    expect(withClaim.body).toContain('>Beta</a>');
    expect(withClaim.headers.etag).not.toBe(plain.headers.etag);
    // A token signed with another key, or an unsigned one, is refused.
    expect((await get(`${base}/?jwt_token=${await sign({ beta: true }, 'f'.repeat(64))}`)).statusCode).toBe(403);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"beta":true}').toString('base64url')}.`;
    expect((await get(`${base}/?jwt_token=${unsigned}`)).statusCode).toBe(403);
    // The log shows the requests, never the tokens they carried.
    const requests = logged.filter((l) => l.includes(`${base}/?jwt_token=`));
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const l of requests) expect(JSON.parse(l).req.url).toBe(`${base}/?jwt_token=[redacted]`);
    expect(logged.join('\n')).not.toContain(auth.privateKey);
    expect(logged.join('\n')).not.toContain(unsigned);
    // Regenerating the key ends old tokens; a fallback URL receives visitors without one.
    const token = await sign({});
    await api('POST', `/sites/${site.id}/publishing/auth/regenerate`);
    expect((await get(`${base}/`, { cookie: `quire_visitor=${token}` })).statusCode).toBe(403);
    expect(await api('PATCH', `/sites/${site.id}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.acme.test/start' })).toMatchObject({
      fallbackURL: 'https://login.acme.test/start',
    });
    const redirect = await get(`${base}/open-page`);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe(`https://login.acme.test/start?location=${encodeURIComponent(`http://127.0.0.1:8090${base}/open-page`)}`);
    // Bad settings are refused with the field named.
    const bad = await h.g.call(owner, 'PATCH', `/v1/orgs/${orgId}/sites/${site.id}/publishing/auth`, { backend: 'custom', fallbackURL: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/fallbackURL/);
  });
});

describe('insights', () => {
  it('sends page views with a visitor and a session, counted by insights', async () => {
    const site = await publishedSite([await spaceWith(h.g, owner, orgId, 'Counted', [page('Counted page', 'x')])]);
    const first = await get(`/${orgId}/${site.id}/`);
    const cookies = [first.headers['set-cookie']].flat().map((c) => c!.split(';')[0]!);
    expect(cookies.some((c) => c.startsWith('quire_vid='))).toBe(true);
    expect(cookies.some((c) => c.startsWith('quire_sid='))).toBe(true);
    await get(`/${orgId}/${site.id}/counted-page`, { cookie: cookies.join('; ') });
    await h.reader.flushInsights();
    const count = async () =>
      (await api('POST', `/sites/${site.id}/insights/events/aggregate`, { select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }], range: 'last24Hours' })).columns.map(
        (c: { values: number[] }) => c.values[0],
      );
    let seen: number[] = [];
    for (let i = 0; i < 100; i++) {
      seen = await count();
      if (seen[0]! >= 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual([2, 1]);
  });
});
