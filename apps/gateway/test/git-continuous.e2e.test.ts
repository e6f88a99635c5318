import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitIn, readRepo } from '@quire/git-sync/testing';
import type { TestUser } from '@quire/orgs/testing';
import { describe, expect } from 'vitest';
import { deliver, useHookedRepos, type Hooked } from './git-hooked.ts';
import { ok, type Gateway } from './harness.ts';
import { test } from './fixtures.ts';

// Continuous Git Sync: a change request merged into a Git-synced space is a commit on its branch,
// authored by the merger, its subject the message; when both sides changed at once, neither
// overwrites the other; a push of a few files rebuilds only their pages.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

const { cloneOf, hook } = useHookedRepos();

const FILES = {
  'README.md': '# Handbook\n\nFirst words.\n',
  'guide.md': '# Guide\n\nSteps.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n* [Guide](guide.md)\n',
  // Not a page: an export leaves it as it is.
  'package.json': '{ "private": true }\n',
};

const it = test.extend<{ synced: Hooked }>({
  // Not `hooked`: the push webhook file names its own fixture so, and the files of a process share fixtures by name.
  synced: async ({ g, team: { owner }, space, origin }, use) => {
    const { dispose, ...synced } = await hook(g, owner, space.id, origin, FILES, 'First words.');
    await use(synced);
    await dispose();
  },
});

/** The space's pages by title, as markdown. */
async function pages(g: Gateway, as: TestUser, spaceId: string): Promise<Record<string, string>> {
  const list = (await ok(g.call(as, 'GET', `/v1/spaces/${spaceId}/content`))).pages as { id: string; title: string }[];
  const out: Record<string, string> = {};
  for (const p of list) out[p.title] = (await ok(g.call(as, 'GET', `/v1/spaces/${spaceId}/content/page/${p.id}?format=markdown`))).markdown;
  return out;
}

/** The space's pages by title: their document ids. */
async function documents(g: Gateway, as: TestUser, spaceId: string): Promise<Record<string, string>> {
  const list = (await ok(g.call(as, 'GET', `/v1/spaces/${spaceId}/content`))).pages as { title: string; documentId: string }[];
  return Object.fromEntries(list.map((p) => [p.title, p.documentId]));
}

/** A change request rewriting the page titled `title` to `markdown`, merged by `merger`: its id. */
async function mergeChange(g: Gateway, as: TestUser, merger: TestUser, spaceId: string, subject: string, title: string, markdown: string): Promise<string> {
  const list = (await ok(g.call(as, 'GET', `/v1/spaces/${spaceId}/content`))).pages as { id: string; title: string }[];
  const page = list.find((p) => p.title === title)!.id;
  const cr = await ok(g.call(as, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject }), 201);
  await ok(g.call(as, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page, document: { markdown } }] }));
  await ok(g.call(merger, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
  return cr.id;
}

/** The sync log once `found` finds a settled entry in it (30 s at most). */
async function logUntil(g: Gateway, as: TestUser, spaceId: string, found: (items: Json[]) => Json | undefined): Promise<Json[]> {
  let items: Json[] = [];
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    items = (await ok(g.call(as, 'GET', `/v1/spaces/${spaceId}/git/log`))).items;
    const entry = found(items);
    if (entry && !['queued', 'running'].includes(entry.result)) return items;
  }
  throw new Error(`the sync log did not show it: ${JSON.stringify(items)}`);
}

describe('merges out', () => {
  it('a merged change request is a commit on the branch, by the merger, its subject the message', async ({ g, team: { owner, editor }, synced }) => {
    const { spaceId } = synced;
    const before = await readRepo(synced.bare);
    const cr = await mergeChange(g, editor, owner, spaceId, 'Reword the handbook', 'Handbook', 'Merged words.\n');
    const log = await logUntil(g, owner, spaceId, (items) => items.find((e) => e.trigger === 'merge'));
    const merge = log.find((e) => e.trigger === 'merge');
    const after = await readRepo(synced.bare);
    expect(merge).toMatchObject({
      direction: 'export',
      trigger: 'merge',
      user: owner.id,
      changeRequest: cr,
      ref: 'refs/heads/main',
      commit: after.head,
      result: 'done',
      pagesChanged: 1,
    });
    expect(after.commits).toBe(before.commits + 1);
    const [name, email, message] = (await gitIn(synced.bare, 'log', '-1', '--format=%an%n%ae%n%B', 'main')).split('\n');
    expect([name, email, message]).toEqual(['owner', owner.email, 'Reword the handbook']);
    expect(after.files['README.md']).toContain('Merged words.');
    // Only the page merged changed; the file that is not a page is as it was.
    expect(await gitIn(synced.bare, 'diff', '--name-only', before.head, after.head)).toBe('README.md\n');
    expect(after.files['package.json']).toBe(FILES['package.json']);
    // The host's webhook for that push comes back: the space's own export, imported again never.
    const again = await logUntil(g, owner, spaceId, (items) => items.find((e) => e.trigger === 'webhook' && e.commit === after.head));
    expect(again.find((e) => e.trigger === 'webhook' && e.commit === after.head)).toMatchObject({
      result: 'skipped',
      reason: expect.stringMatching(new RegExp(`^commit ${after.head} is (the one last synced|the space's own export)$`)),
    });
    expect((await pages(g, owner, spaceId)).Handbook).toContain('Merged words.');
  });

  it('a push and a merge at once lose nothing: each is refused with the reason, both sides keep their changes', async ({ g, team: { owner, editor }, origin, synced }) => {
    const { spaceId } = synced;
    // The host's delivery of the push is held: the merge is exported while the push is not imported yet.
    await writeFile(join(synced.outbox, 'hold'), '');
    const clone = await cloneOf(synced.url);
    const pushed = await clone.push({ 'guide.md': '# Guide\n\nPushed steps.\n' });
    const cr = await mergeChange(g, editor, owner, spaceId, 'Reword the handbook', 'Handbook', 'Merged words.\n');
    let log = await logUntil(g, owner, spaceId, (items) => items.find((e) => e.trigger === 'merge'));
    expect(log.find((e) => e.trigger === 'merge')).toMatchObject({
      direction: 'export',
      changeRequest: cr,
      result: 'failed',
      reason: expect.stringMatching(new RegExp(`^both sides changed: refs/heads/main is at ${pushed}, no longer at [0-9a-f]{40}, the commit last synced`)),
    });
    const [push] = await synced.sent();
    expect((await deliver(origin, spaceId, push!.headers, push!.body)).status).toBe(202);
    log = await logUntil(g, owner, spaceId, (items) => items.find((e) => e.trigger === 'webhook' && e.commit === pushed));
    expect(log.find((e) => e.trigger === 'webhook' && e.commit === pushed)).toMatchObject({
      direction: 'import',
      result: 'failed',
      reason: expect.stringMatching(/^both sides changed: the space's content changed since commit [0-9a-f]{40} was synced/),
    });
    // Git keeps the push, the space keeps the merge.
    const repo = await readRepo(synced.bare);
    expect(repo.head).toBe(pushed);
    expect(repo.files['guide.md']).toContain('Pushed steps.');
    expect(repo.files['README.md']).toBe(FILES['README.md']);
    const space = await pages(g, owner, spaceId);
    expect(space.Handbook).toContain('Merged words.');
    expect(space.Guide).toContain('Steps.');
    expect(space.Guide).not.toContain('Pushed');
  });
});

describe('merges without continuous sync', () => {
  it('a space without a webhook exports nothing when a change request is merged', async ({ g, team: { owner, orgId }, synced }) => {
    const plain = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Not synced' }), 201);
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${plain.id}/change-requests`, { subject: 'Local' }), 201);
    await ok(
      g.call(owner, 'POST', `/v1/spaces/${plain.id}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'insert_page', title: 'Local', document: { markdown: 'Only here.\n' } }],
      }),
    );
    await ok(g.call(owner, 'POST', `/v1/spaces/${plain.id}/change-requests/${cr.id}/merge`));
    // Merges are read in order: once a later merge into the synced space is exported, the first was read.
    await mergeChange(g, owner, owner, synced.spaceId, 'Later', 'Handbook', 'Later words.\n');
    await logUntil(g, owner, synced.spaceId, (items) => items.find((e) => e.trigger === 'merge'));
    expect((await ok(g.call(owner, 'GET', `/v1/spaces/${plain.id}/git/log`))).items).toEqual([]);
  });
});

describe('incremental pushes', () => {
  it("a push of one file rebuilds its page only: the others keep their documents; a new page is a whole import's", async ({ g, team: { owner }, synced }) => {
    const { spaceId } = synced;
    const before = await documents(g, owner, spaceId);
    const clone = await cloneOf(synced.url);
    const pushed = await clone.push({ 'guide.md': '# Guide\n\nPushed steps.\n' });
    let log = await logUntil(g, owner, spaceId, (items) => items.find((e) => e.commit === pushed));
    expect(log.find((e) => e.commit === pushed)).toMatchObject({ trigger: 'webhook', result: 'done', pagesChanged: 1 });
    const after = await documents(g, owner, spaceId);
    expect(after.Handbook).toBe(before.Handbook);
    expect(after.Guide).not.toBe(before.Guide);
    expect((await pages(g, owner, spaceId)).Guide).toContain('Pushed steps.');

    // A page added (and the table of contents with it): every page rebuilt, the new one there.
    const added = await clone.push({ 'faq.md': '# FAQ\n\nAnswers.\n', 'SUMMARY.md': `${FILES['SUMMARY.md']}* [FAQ](faq.md)\n` });
    log = await logUntil(g, owner, spaceId, (items) => items.find((e) => e.commit === added));
    expect(log.find((e) => e.commit === added)).toMatchObject({ result: 'done', pagesChanged: 1 });
    const now = await pages(g, owner, spaceId);
    expect(Object.keys(now)).toEqual(['Handbook', 'Guide', 'FAQ']);
    expect(now.Guide).toContain('Pushed steps.');
    expect(now.FAQ).toContain('Answers.');
  });

  // A repository of its own, imported, hooked and pushed to: twice the steps of the other tests, twice their time.
  it('a push of one page leaves unread what the other pages use: the space keeps their reusable content and linked file', async ({ g, team: { owner }, space, origin }) => {
    const files = {
      'README.md': '# Handbook\n\nFirst words.\n\n{% include ".gitbook/includes/note.md" %}\n\n![Diagram](images/diagram.png)\n',
      'guide.md': '# Guide\n\nSteps.\n',
      'SUMMARY.md': FILES['SUMMARY.md'],
      '.gitbook/includes/note.md': '# Note\n\nShared note.\n',
      'images/diagram.png': 'not really a PNG',
    };
    const { dispose, ...repo } = await hook(g, owner, space.id, origin, files, 'First words.');
    try {
      const content = () => ok(g.call(owner, 'GET', `/v1/spaces/${space.id}/content`));
      const before = await content();
      expect(before.files.map((f: Json) => f.name)).toEqual(['diagram.png']);
      expect(before.reusableContents.map((r: Json) => r.title)).toEqual(['Note']);
      const pushed = await (await cloneOf(repo.url)).push({ 'guide.md': '# Guide\n\nPushed steps, see the [handbook](README.md).\n' });
      const log = await logUntil(g, owner, space.id, (items) => items.find((e) => e.commit === pushed));
      expect(log.find((e) => e.commit === pushed)).toMatchObject({ trigger: 'webhook', result: 'done', pagesChanged: 1 });
      const after = await content();
      // By id, name and Git file (download URLs are signed anew each time).
      const stored = (c: Json) => c.files.map(({ id, name, git }: Json) => ({ id, name, git }));
      expect(stored(after)).toEqual(stored(before));
      expect(after.reusableContents).toEqual(before.reusableContents);
      const handbook = (list: Json[]) => list.find((p) => p.title === 'Handbook');
      expect(handbook(after.pages).documentId).toBe(handbook(before.pages).documentId);
      expect((await pages(g, owner, space.id)).Guide).toContain('Pushed steps');
      // Its link leads to the unread page, by id.
      const guide = after.pages.find((p: Json) => p.title === 'Guide');
      const { document } = await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}/content/page/${guide.id}?format=document`));
      expect(JSON.stringify(document)).toContain(`"page":"${handbook(after.pages).id}"`);
    } finally {
      await dispose();
    }
  }, 120_000);
});
