import { expect, it } from 'vitest';
import type { Editor } from '@tiptap/react';
import { useHookedRepos } from '@quire/gateway/testing/git-hooked';
import { gitIn, readRepo } from '@quire/git-sync/testing';
import { describeInChromium, expectAccessible, reviewSuite, shots } from './app-server.ts';

// Continuous Git Sync in Debian's Chromium: a space linked to a bare repository on a local Git
// server whose post-receive hook sends signed push webhooks; a change request edited and merged by
// clicking in the web app is a commit on the branch, and the Git view's sync log shows the export.

const FILES = {
  'README.md': '# Handbook\n\nFirst words.\n',
  'guide.md': '# Guide\n\nSteps.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n* [Guide](guide.md)\n',
};

describeInChromium('continuous Git Sync in Chromium', () => {
  const s = reviewSuite('git-continuous');
  const { hook } = useHookedRepos();

  it('a change request edited and merged in the web app is a commit by the merger, its subject the message, and the sync log shows it', async () => {
    const space = await s.app.g.call(s.writer, 'POST', `/v1/orgs/${s.orgId}/spaces`, { title: 'Synced handbook' });
    expect(space.statusCode, space.body).toBe(201);
    const spaceId = space.json().id as string;
    const synced = await hook(s.app.g, s.writer, spaceId, s.app.origin, FILES, 'First words.');
    const before = await readRepo(synced.bare);

    // Editing starts a change request; the writer rewords the handbook's page.
    const w = await s.browser.signedIn(s.app.origin, s.writer, `/o/${s.orgId}/s/${spaceId}`);
    await w.getByRole('link', { name: 'Edit' }).click();
    await w.getByLabel('Subject of the new change request').fill('Reword the handbook');
    await w.getByRole('button', { name: 'New change request' }).click();
    await w.getByRole('navigation', { name: 'Page tree' }).getByRole('link', { name: 'Handbook', exact: true }).click();
    const editor = w.getByRole('textbox', { name: /Content of/ });
    await editor.getByText('First words.').waitFor();
    await w.evaluate(() => (document.querySelector('.ProseMirror') as unknown as { editor: Editor }).editor.commands.focus('end'));
    // The autosave's request is awaited: the page is left right after, by a navigation that drops a save still pending.
    const saved = w.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/content') && r.request().postData()!.includes('Merged from the browser.'));
    await w.keyboard.press('Enter');
    await w.keyboard.type('Merged from the browser.');
    expect((await saved).status()).toBe(200);
    await w.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 30_000 });

    // The writer merges on the change request's page, once its changes show the edit.
    await w.goto(s.app.origin + new URL(w.url()).pathname.replace(/\/edit(\/.*)?$/, ''));
    await w
      .getByRole('article', { name: /^Handbook/ })
      .getByText('Merged from the browser.')
      .waitFor();
    await w.getByRole('button', { name: 'Merge' }).click();
    await w.getByText('merged', { exact: true }).waitFor();

    // The bare repository gets the commit: the merger its author, the subject its message.
    let after = before;
    await expect.poll(async () => (after = await readRepo(synced.bare)).commits, { timeout: 30_000 }).toBe(before.commits + 1);
    const [name, email, message] = (await gitIn(synced.bare, 'log', '-1', '--format=%an%n%ae%n%B', 'main')).split('\n');
    expect([name, email, message]).toEqual(['owner', s.writer.email, 'Reword the handbook']);
    expect(after.files['README.md']).toContain('Merged from the browser.');
    expect(await gitIn(synced.bare, 'diff', '--name-only', before.head, after.head)).toBe('README.md\n');

    // The Git view's sync log shows the export of the merge, done, at that commit.
    await w.goto(`${s.app.origin}/o/${s.orgId}/s/${spaceId}/~/settings/git`);
    const log = w.getByRole('region', { name: 'Sync log' });
    const row = log.getByRole('row').filter({ hasText: 'Export · Merged change request' });
    await expect.poll(async () => (await row.count()) === 1 && (await row.textContent()), { timeout: 30_000 }).toContain('done');
    expect(await row.getByRole('cell').nth(2).textContent()).toBe(after.head.slice(0, 7));
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('1');
    // The hook's push of that commit comes back and is not imported again: the log says why.
    const push = log.getByRole('row').filter({ hasText: 'Import · Push' });
    await expect.poll(async () => (await push.count()) === 1 && (await push.textContent()), { timeout: 30_000 }).toContain(`skippedcommit ${after.head}`);
    await expectAccessible(w, 'git sync log');
    await w.screenshot({ path: `${shots}git-sync-log.png`, fullPage: true });
  });
});
