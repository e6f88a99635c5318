import type { TestUser } from '@quire/orgs/testing';
import { ok } from '@quire/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, spaceWith, startReader } from './harness.ts';

// A page's cover and layout, set by its GitBook front matter, as the published site shows them.

type Harness = Awaited<ReturnType<typeof startReader>>;
let h: Harness;
let owner: TestUser;
let orgId: string;
let base: string;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const get = (url: string) => h.reader.app.inject({ method: 'GET', url });
const api = (method: 'POST' | 'PATCH', url: string, body?: unknown, status = 200) => ok(h.g.call(owner, method, `/v1/orgs/${orgId}${url}`, body), status);
const hidden = (part: string) => `  ${part}:\n    visible: false\n`;
const body = '\nText.\n\n## First part\n\nMore.\n\n## Second part\n\nEnd.\n';

/** A space whose active revision has these pages and a PNG file of each id. */
const spaceOf = (title: string, files: string[], pages: ReturnType<typeof page>[]) =>
  spaceWith(
    h.g,
    owner,
    orgId,
    title,
    pages,
    files.map((id) => ({ id, name: `${id}.png`, contentType: 'image/png', data: PNG })),
  );

beforeAll(async () => {
  h = await startReader();
  owner = await h.g.orgs.user('owner');
  orgId = (await h.g.orgs.organization(owner, [])).id;
  // Another space of the organization holds a file the site's pages name but do not have.
  await spaceOf('Private', ['secret'], [page('Private', 'Nothing.')]);
  const spaceId = await spaceOf(
    'Guide',
    ['hero', 'night'],
    [
      page('Plain', body, [], { fields: { title: 'Plain', description: 'A plain page' } }),
      page(
        'Styled',
        `---\ncover: /files/hero\ncoverDark: /files/night\ncoverY: 100\nlayout:\n  width: wide\n${hidden('title')}${hidden('description')}${hidden('tableOfContents')}${hidden('outline')}${hidden('pagination')}---\n${body}`,
        [],
        { fields: { title: 'Styled', description: 'Hidden lead' } },
      ),
      page('Full', `---\ncover: /files/hero\nlayout:\n  cover:\n    size: full\n---\n${body}`),
      page('Borrowed', `---\ncover: /files/secret\n---\n${body}`),
      page('Scripted', `---\ncover: "javascript:alert(1)"\ncoverDark: http://example.com/x.png\n---\n${body}`),
    ],
  );
  const site = await api('POST', '/sites', { title: 'Acme Docs', spaces: [spaceId] }, 201);
  await api('POST', `/sites/${site.id}/publish`);
  base = `/${orgId}/${site.id}`;
}, 120_000);
afterAll(() => h?.stop());

const coverOf = (html: string) => /<div class="cover [^"]*"[^>]*>.*?<\/div>/.exec(html)?.[0];

describe('a page with a cover and a layout', () => {
  it('shows the cover above the title, its dark image for dark themes, served by the site', async () => {
    const res = await get(`${base}/styled`);
    expect(res.statusCode, res.body).toBe(200);
    const cover = coverOf(res.body)!;
    expect(cover).toMatch(/^<div class="cover hero" style="height:240px">/);
    const imgs = [...cover.matchAll(/<img([^>]*)>/g)].map((m) => m[1]!);
    expect(imgs).toHaveLength(2);
    expect(imgs[0]).toMatch(/^ class="cover-light" src="[^"]+\/~files\/[^"]+\/hero" alt="" width="1" height="1" loading="eager" style="object-position:50% \d+(\.\d+)?%"$/);
    expect(imgs[1]).toMatch(/^ class="cover-dark" src="[^"]+\/~files\/[^"]+\/night" alt=""/);
    // Above the title, in the content.
    expect(res.body.indexOf(cover)).toBeLessThan(res.body.indexOf('<h1'));
    for (const img of imgs) {
      const src = /src="([^"]+)"/.exec(img)![1]!;
      const file = await get(src);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
    }
  });

  it('hides what the layout hides and widens the page', async () => {
    const res = await get(`${base}/styled`);
    expect(res.body).toContain('<div class="shell no-toc wide">');
    expect(res.body).toContain('<h1 class="visually-hidden">Styled</h1>');
    expect(res.body).not.toContain('Hidden lead</p>');
    expect(res.body).not.toContain('class="sidebar"');
    expect(res.body).not.toContain('data-menu');
    expect(res.body).not.toContain('On this page');
    expect(res.body).not.toContain('class="pager"');
    expect(res.body).toMatch(/<h2 id="first-part">First part/);
  });

  it('spans the full width when the layout asks for it', async () => {
    const res = await get(`${base}/full`);
    expect(coverOf(res.body)).toMatch(/^<div class="cover full"[^>]*><img src="[^"]+\/hero" alt="" width="1" height="1" loading="eager" style="object-position:50% 50%"><\/div>$/);
    expect(res.body).toContain('<div class="shell">');
  });
});

describe('a page without front matter', () => {
  it("shows everything, as GitBook's defaults do", async () => {
    const res = await get(`${base}/plain`);
    expect(res.statusCode).toBe(200);
    expect(coverOf(res.body)).toBeUndefined();
    expect(res.body).toContain('<div class="shell">');
    expect(res.body).toContain('data-menu');
    expect(res.body).toContain('<aside id="nav" class="sidebar">');
    expect(res.body).toContain('<article><h1>Plain</h1><p class="lead">A plain page</p>');
    expect(res.body).toContain('<h2>On this page</h2>');
    expect(res.body).toMatch(/rel="next"><span>Next<\/span>Styled/);
  });
});

describe('a cover the site may not show', () => {
  it("is left out: another space's file, a script URL, an http image", async () => {
    for (const path of ['borrowed', 'scripted']) {
      const res = await get(`${base}/${path}`);
      expect(res.statusCode, path).toBe(200);
      expect(coverOf(res.body), path).toBeUndefined();
      expect(res.body).not.toContain('secret');
      expect(res.body).not.toContain('javascript:');
      expect(res.body).not.toContain('example.com');
    }
  });
});
