import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { running } from '@quire/service-kit/testing';
import { commitTo, startGitServer } from '@quire/git-sync/testing';
import { ok } from '@quire/gateway/testing';
import { describe, expect } from 'vitest';
import { page } from './harness.ts';
import { test } from './published.ts';

// A space imported from a Git repository, published: .gitbook.yaml's redirects and included files.

/** `repos`, a Git server for the file; `importedSpace(title, files)`, a new space imported from a repository of `files`. */
const it = test.extend<{ repos: Awaited<ReturnType<typeof startGitServer>>; importedSpace: (title: string, files: Record<string, string>) => Promise<string> }>({
  repos: [running(startGitServer), { scope: 'file' }],
  importedSpace: async ({ h, owner, api, repos }, use) =>
    use(async (title, files) => {
      const name = title.toLowerCase();
      await repos.create(name, files);
      const spaceId = (await api('POST', '/spaces', { title }, 201)).id as string;
      await ok(h.g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/import`, { url: repos.url(name), ref: 'refs/heads/main' }), 204);
      // GET git/info until the latest job is over.
      const imported = async () => {
        for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
          const state = (await ok(h.g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/info`))).job?.state;
          if (state === 'done' || state === 'failed') return state;
        }
        throw new Error('the git import did not finish');
      };
      expect(await imported()).toBe('done');
      return spaceId;
    }),
});

describe('a space imported from a Git repository', () => {
  it(".gitbook.yaml's redirects answer 301 to their page's published URL, with the anchor; unknown paths stay a 404 page", async ({
    orgId,
    get,
    api,
    publishedSite,
    spaceWith,
    importedSpace,
  }) => {
    const spaceId = await importedSpace('Moved', {
      '.gitbook.yaml': 'root: ./docs/\n\nredirects:\n  old/install: guide/install.md#linux\n  /help/: README.md\n  установка: guide/install.md\n  gone: guide/removed.md\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n',
      'docs/README.md': '# Welcome\n',
      'docs/guide/README.md': '# Guide\n',
      'docs/guide/install.md': '# Install\n\n## Linux\n\nRun it.\n',
    });
    // The repository's space as a second variant: its URLs carry the site-space's path.
    const first = await spaceWith('First', [page('Home', 'Home.')]);
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

  it('renders included files in place, nested ones too, stopping at an include of itself; page markdown and llms-full.txt carry the included text', async ({
    orgId,
    get,
    publishedSite,
    importedSpace,
  }) => {
    const spaceId = await importedSpace('Included', {
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

  it("a new import's spec files are read ahead for a site already served, before its next page view", async ({
    h,
    owner,
    orgId,
    get,
    publishedSite,
    repos,
    importedSpace,
    logged,
  }) => {
    const spec = readFileSync(new URL('./fixtures/things-3.0.yaml', import.meta.url), 'utf8');
    const spaceId = await importedSpace('Specs', { 'README.md': '# Reference\n\nThe [first spec](first.yaml).\n', 'first.yaml': spec });
    expect((await get(`/${orgId}/${(await publishedSite([spaceId])).id}/`)).statusCode).toBe(200);
    const pushed = () => logged.some((line) => line.includes('OpenAPI spec read ahead') && line.includes('"file":"second.yaml"'));
    await commitTo(
      join(repos.root, 'specs.git'),
      { 'README.md': '# Reference\n\nThe [first](first.yaml) and [second](second.yaml) specs.\n', 'second.yaml': spec.replace('title: Things', 'title: Pushed') },
      'Second spec',
    );
    expect(pushed()).toBe(false);
    await ok(h.g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/import`, { url: repos.url('specs'), ref: 'refs/heads/main' }), 204);
    // Told by git-sync's event, not by a visitor: no page is asked for meanwhile.
    for (const deadline = Date.now() + 30_000; !pushed(); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() > deadline) throw new Error('second.yaml was not read ahead');
    }
  });
});
