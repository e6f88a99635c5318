import { paragraph, text, type DocumentInlineMention } from '@quire/document';
import { ok } from '@quire/gateway/testing';
import { describe, expect } from 'vitest';
import { page, setPages } from './harness.ts';
import { guide, test as it } from './published.ts';

// A published site as its readers see it: pages with their tree, outline and metadata, what the
// editor wrote rendered safely, fresh once the content changes, and 404 pages for what is not there.

describe('serving a public site', () => {
  it('answers the first page at the root with the page tree, outline, pager and metadata', async ({ get, base }) => {
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

  it('serves nested pages with breadcrumbs and previous/next, and opens link pages at their target', async ({ get, base }) => {
    const res = await get(`${base}/setup/advanced`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="[^"]+\/setup">Setup<\/a><\/li><\/ol><\/nav>/);
    expect(res.body).toMatch(/rel="prev"><span>Previous<\/span>Setup/);
    expect((await get(`${base}/hidden`)).statusCode).toBe(200);
    const link = await get(`${base}/docs-home`);
    expect(link.statusCode).toBe(302);
    expect(link.headers.location).toBe('https://example.com/docs');
  });

  it('answers 304 to a revalidation and a new page once the content changes', async ({ h, owner, get, guideSpace, base }) => {
    const first = await get(`${base}/setup`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const again = await get(`${base}/setup`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const pages = guide();
    pages[1] = page('Setup', 'Set things up, now better.', [page('Advanced', 'Deep dive.')]);
    await setPages(h.g, owner, guideSpace, pages);
    const changed = await get(`${base}/setup`, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('now better');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('renders a page as the editor wrote it, with what its markdown cannot carry', async ({ h, owner, get, guideSpace, base }) => {
    // Mentioned: a member by name; a user of no concern to the organization, by nothing.
    const stranger = await h.g.orgs.user('stranger-in-mentions');
    const mention = (user: string): DocumentInlineMention => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user } } });
    const pages = (await ok(h.g.call(owner, 'GET', `/v1/spaces/${guideSpace}/content/pages`))).pages as { id: string; title: string }[];
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
    const cr = await ok(h.g.call(owner, 'POST', `/v1/spaces/${guideSpace}/change-requests`, { subject: 'Rich' }), 201);
    const crPath = `/v1/spaces/${guideSpace}/change-requests/${cr.number}`;
    await ok(h.g.call(owner, 'POST', `${crPath}/content`, { changes: [{ operation: 'insert_page', title: 'Rich', document }] }));
    await ok(h.g.call(owner, 'POST', `${crPath}/merge`));
    const res = await get(`${base}/rich`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('<p>Wave 👋 at the <mark class="color-red">red flamingo</mark> then ');
    expect(res.body).toContain(`<a href="${base}/setup" class="button button-primary">Set up</a>`);
    expect(res.body).toContain(`, ask <span class="mention">owner</span> not <span class="mention"></span>`);
    expect(res.body).not.toContain('stranger-in-mentions');
  });

  it('answers real 404 pages for missing sites, pages and paths, never a stack trace', async ({ orgId, otherOrg, get, base }) => {
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

  it('stops answering when the site is unpublished', async ({ orgId, get, api, publishedSite, spaceWith }) => {
    const other = await publishedSite([await spaceWith('Temp', [page('One', 'x')])]);
    expect((await get(`/${orgId}/${other.id}/`)).statusCode).toBe(200);
    await api('POST', `/sites/${other.id}/unpublish`);
    expect((await get(`/${orgId}/${other.id}/`)).statusCode).toBe(404);
  });

  it('shows a table cell of the inline HTML GitBook writes as GitBook does, keeping none of an attacker’s markup', async ({ orgId, get, publishedSite, spaceWith }) => {
    // GitBook renders the cell's blocks: its `<p>`s as paragraphs, `<code>` as inline code, a list
    // as a list (RecordColumnValue in GitbookIO/gitbook); never the tags as text.
    const table = [
      '| Option | Description                                                                             |',
      '| ------ | --------------------------------------------------------------------------------------- |',
      "| `type` | <p>Either one of these strings:</p><p><code>'fileManager'</code> - the file manager</p> |",
      '| `evil` | <p style="x" onclick="alert(1)">a</p><script>alert(2)</script><a href="javascript:alert(3)">b</a><img src="x" onerror="alert(4)"> |',
    ].join('\n');
    const space = await spaceWith('Options', [page('Options', `${table}\n`)]);
    const site = `/${orgId}/${(await publishedSite([space])).id}`;
    const body = (await get(`${site}/options`)).body;
    expect(body).toContain("<td><p>Either one of these strings:</p><p><code>'fileManager'</code> - the file manager</p></td>");
    expect(body).toContain('<td><p>a</p><p>&#x3C;script>alert(2)&#x3C;/script><a>b</a><img src="x" alt="" loading="lazy"></p></td>');
    expect(body).not.toMatch(/onclick|onerror|javascript:|<script>alert/);
    expect((await get(`${site}/options.md`)).body).toContain(table.split('\n')[2]);
  });
});
