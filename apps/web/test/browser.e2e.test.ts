import { expect, it } from 'vitest';
import type { DocumentBlockParagraph, DocumentBlockTable, DocumentBlockTabs, JSONDocument } from '@quire/document';
import type { Editor } from '@tiptap/react';
import type { Page } from 'playwright-core';
import type { TestUser } from '@quire/orgs/testing';
import { describeInChromium, expectAccessible, reviewSuite, shots } from './app-server.ts';

// The web app in Debian's Chromium, served by the real gateway over the real services: a writer
// writes a page in a change request, a reviewer comments and approves, the writer merges.
// Skipped only when Chromium is missing outside CI; in CI a missing browser fails the run.

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describeInChromium('the web app in Chromium', () => {
  const s = reviewSuite('web');
  const { browser } = s;

  const signedIn = (user: TestUser, path = '/') => browser.signedIn(s.app.origin, user, path);

  /** A new page `title` in a new change request `subject` of a new space `space`, open in the editor. */
  const newPage = async (space: string, subject: string, title: string) => {
    const w = await signedIn(s.writer);
    await w.getByLabel('New space title').fill(space);
    await w.getByRole('button', { name: 'New space' }).click();
    await w.getByRole('navigation', { name: 'Library' }).getByRole('link', { name: space }).click();
    await w.getByRole('link', { name: 'Edit' }).click();
    await w.getByLabel('Subject of the new change request').fill(subject);
    await w.getByRole('button', { name: 'New change request' }).click();
    await w.getByRole('button', { name: 'New page' }).click();
    await w.getByLabel('Page title').fill(title);
    return w;
  };
  /** Types `/query` and clicks the menu's `option`. */
  const slashIn = (w: Page) => async (query: string, option: string) => {
    await w.keyboard.type(`/${query}`);
    await w.getByRole('listbox', { name: 'Insert a block' }).getByRole('option', { name: option, exact: true }).click();
  };
  /** The document of the change request's page `title`, as the API answers it (the editor open at /o/:org/s/:space/~/changes/:number/edit/…). */
  const savedDocument = async (w: Page, title: string) => {
    const [, , , , spaceId, , , number] = new URL(w.url()).pathname.split('/');
    const content = `${s.app.origin}/v1/spaces/${spaceId}/change-requests/${number}/content`;
    return w.evaluate(
      async ({ base, title }) => {
        const { pages } = (await (await fetch(`${base}/pages`)).json()) as { pages: { id: string; title: string }[] };
        const page = pages.find((p) => p.title === title)!;
        return ((await (await fetch(`${base}/page/${page.id}?format=document`)).json()) as { document: JSONDocument }).document;
      },
      { base: content, title },
    );
  };

  it('a writer writes a page in a change request, a reviewer comments and approves, the writer merges it into the space', async () => {
    const anonymousContext = await browser.context();
    const anonymous = await anonymousContext.newPage();
    await anonymous.goto(s.app.origin + '/');
    await anonymous.getByRole('heading', { name: 'Sign in to Quire' }).waitFor();
    await expectAccessible(anonymous, 'sign-in');
    await anonymous.screenshot({ path: `${shots}sign-in.png` });

    // The library: a new space.
    const w = await signedIn(s.writer);
    await w.getByRole('heading', { name: 'Library' }).waitFor();
    expect(new URL(w.url()).pathname).toBe(`/o/${s.orgId}`);
    await w.getByLabel('New space title').fill('Handbook');
    await w.getByRole('button', { name: 'New space' }).click();
    await w.getByRole('navigation', { name: 'Library' }).getByRole('link', { name: 'Handbook' }).click();
    await w.getByRole('heading', { name: 'This space has no pages yet' }).waitFor();
    await expectAccessible(w, 'library');
    await w.screenshot({ path: `${shots}library.png` });
    const spaceId = new URL(w.url()).pathname.split('/')[4]!;

    // Editing starts a change request.
    await w.getByRole('link', { name: 'Edit' }).click();
    await w.getByLabel('Subject of the new change request').fill('First guide');
    await w.getByRole('button', { name: 'New change request' }).click();
    await w.getByRole('button', { name: 'New page' }).click();
    const title = w.getByLabel('Page title');
    await title.waitFor();
    await title.fill('Getting started');

    const editor = w.getByRole('textbox', { name: /Content of/ });
    await editor.click();
    // Markdown shortcuts: a heading, a list, a code block.
    await w.keyboard.type('## Install');
    await w.keyboard.press('Enter');
    await w.keyboard.type('- Download the archive');
    await w.keyboard.press('Enter');
    await w.keyboard.type('Unpack it');
    await w.keyboard.press('Enter');
    await w.keyboard.press('Enter');
    await w.keyboard.type('```sh ');
    await w.keyboard.type('quire serve');
    await w.keyboard.press('Enter');
    await w.keyboard.press('Enter');
    await w.keyboard.press('Enter');
    // A slash command: a warning hint.
    await w.keyboard.type('/warn');
    await w.getByRole('listbox', { name: 'Insert a block' }).getByRole('option', { name: 'Hint: warning' }).waitFor();
    await w.keyboard.press('Enter');
    await w.keyboard.type('Back up first.');
    await w.keyboard.press('Enter');
    await w.keyboard.press('Enter');
    // An image, uploaded into the change request.
    const chooser = w.waitForEvent('filechooser');
    await w.getByRole('button', { name: 'Image', exact: true }).click();
    await (await chooser).setFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: PNG });
    await w.locator('.editor img').waitFor();
    await w.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 30_000 });
    await expectAccessible(w, 'editor');
    await w.screenshot({ path: `${shots}editor.png` });

    // A reload in the middle of an edit loses nothing.
    // The caret to the end through the editor: a click in its middle may select the image, and
    // typing would then replace it, as in any editor.
    await w.evaluate(() => (document.querySelector('.ProseMirror') as unknown as { editor: Editor }).editor.commands.focus('end'));
    await w.keyboard.type('Typed just before a reload.');
    await w.waitForTimeout(400);
    await w.reload();
    await w
      .getByRole('textbox', { name: /Content of/ })
      .getByText('Typed just before a reload.')
      .waitFor();
    await w.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 30_000 });
    const crUrl = new URL(w.url()).pathname.replace(/\/edit\/.*$/, '');

    // The reviewer reads the diff, comments and approves.
    const r = await signedIn(s.reviewer, crUrl);
    const diff = r.getByRole('article', { name: 'Getting started (new page)' });
    await diff.getByText('## Install').waitFor();
    await diff.getByText('quire serve').first().waitFor();
    await r.getByLabel('Add a comment').fill('Please add a second step.');
    await r.getByRole('button', { name: 'Comment', exact: true }).click();
    await r.getByText('Please add a second step.').waitFor();
    await r.getByRole('button', { name: 'Request changes' }).click();
    await r
      .getByRole('list', { name: 'Reviews' })
      .getByText(/requested changes/)
      .waitFor();
    await expectAccessible(r, 'change request');
    await r.screenshot({ path: `${shots}change-request.png`, fullPage: true });

    // The writer replies, and the reviewer approves.
    await w.goto(s.app.origin + crUrl);
    await w.getByLabel(/Reply to reviewer/).fill('Done: the archive step is there.');
    await w.getByRole('button', { name: 'Reply' }).click();
    await w.getByRole('list', { name: 'Replies' }).getByText('Done: the archive step is there.').waitFor();
    await r.reload();
    await r.getByRole('button', { name: 'Approve' }).click();
    await r
      .getByRole('list', { name: 'Reviews' })
      .getByText(/approved/)
      .waitFor();

    // The writer merges; the page is in the space, rendered as the reader renders it.
    await w.reload();
    await w.getByRole('button', { name: 'Merge' }).click();
    await w.getByText('merged', { exact: true }).waitFor();
    await w.goto(`${s.app.origin}/o/${s.orgId}/s/${spaceId}`);
    await w.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();
    const doc = w.locator('.document');
    await doc.getByRole('heading', { name: 'Install' }).waitFor();
    expect(await doc.locator('ul li').allTextContents()).toEqual(['Download the archive', 'Unpack it']);
    expect(await doc.locator('pre code').textContent()).toContain('quire serve');
    expect(await doc.locator('.hint-warning').textContent()).toContain('Back up first.');
    expect(await doc.locator('img').count()).toBe(1);
    await expectAccessible(w, 'space');
    await w.screenshot({ path: `${shots}space.png`, fullPage: true });
  });

  it('a writer inserts a table, an expandable and tabs with slash commands, and they are saved as GitBook blocks', async () => {
    const w = await newPage('Blocks', 'Reference tables', 'Reference');
    const editor = w.getByRole('textbox', { name: /Content of/ });
    const slash = slashIn(w);
    // The caret to the end of a paragraph: clicked until the editor's own selection is in it (a click
    // right after typing elsewhere is now and then not taken up by the editor's state in time).
    const after = async (text: string) => {
      for (let tries = 0; ; tries++) {
        await editor.getByText(text, { exact: true }).click();
        const moved = await w
          .waitForFunction((t) => (document.querySelector('.ProseMirror') as unknown as { editor: Editor }).editor.state.selection.$from.parent.textContent === t, text, {
            timeout: 2_000,
          })
          .then(() => true)
          .catch(() => false);
        if (moved || tries === 3) break;
      }
      await w.keyboard.press('End');
      await w.keyboard.press('Enter');
    };
    await editor.click();
    for (const line of ['Options:', 'Details:', 'Platforms:']) {
      await w.keyboard.type(line);
      await w.keyboard.press('Enter');
    }

    // Tabs: the first tab renamed and written in; a third tab added.
    await after('Platforms:');
    await slash('tabs', 'Tabs');
    const tabs = editor.locator('.tabs-block');
    await tabs.locator('.tabs-item-title').first().click();
    await w.keyboard.press('End');
    await w.keyboard.press('Shift+Home');
    await w.keyboard.type('macOS');
    await tabs.locator('.tabs-item').first().locator('p').click();
    await w.keyboard.type('brew install quire');
    await tabs.getByRole('button', { name: 'Add tab' }).click();
    await w.keyboard.type('Linux');
    await tabs.locator('.tabs-item').nth(2).locator('p').click();
    await w.keyboard.type('apt-get install quire');

    // An expandable: its title, then its body.
    await after('Details:');
    await slash('expand', 'Expandable');
    await w.keyboard.type('Advanced setup');
    await editor.locator('[data-type="detailsContent"] p').click();
    await w.keyboard.type('Set QUIRE_HOME first.');

    // A table: header cells and a body cell by Tab, then a row from the table toolbar.
    await after('Options:');
    await slash('table', 'Table');
    await w.keyboard.type('Name');
    await w.keyboard.press('Tab');
    await w.keyboard.type('Default');
    await w.keyboard.press('Tab');
    await w.keyboard.press('Tab');
    await w.keyboard.type('port');
    await w.keyboard.press('Tab');
    await w.keyboard.type('8080');
    await w.getByRole('toolbar', { name: 'Table' }).getByRole('button', { name: 'Add row' }).click();
    await w.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 30_000 });
    await expectAccessible(w, 'editor with blocks');
    await w.screenshot({ path: `${shots}editor-blocks.png`, fullPage: true });

    // A reload shows them as they were written.
    await w.reload();
    const reloaded = w.getByRole('textbox', { name: /Content of/ });
    for (const text of ['8080', 'Advanced setup', 'Set QUIRE_HOME first.', 'macOS', 'apt-get install quire']) await reloaded.getByText(text, { exact: true }).waitFor();
    expect(await reloaded.locator('table tr').count()).toBe(4);

    // The API holds GitBook's blocks.
    const model = await savedDocument(w, 'Reference');
    const byType: Record<string, unknown> = Object.fromEntries(model.nodes.map((n) => [n.type, n]));
    expect(model.nodes.map((n) => n.type).filter((t) => t !== 'paragraph')).toEqual(['table', 'expandable', 'tabs']);
    const table = byType.table as DocumentBlockTable;
    expect(table.data.view.columns.map((c) => table.data.definition[c]!.title)).toEqual(['Name', 'Default', '']);
    expect(Object.keys(table.data.records)).toHaveLength(3);
    expect(JSON.stringify(table.fragments)).toContain('8080');
    expect(JSON.stringify(byType.expandable)).toContain('Advanced setup');
    expect(JSON.stringify(byType.expandable)).toContain('Set QUIRE_HOME first.');
    const tabsBlock = byType.tabs as DocumentBlockTabs;
    expect(tabsBlock.nodes.map((t) => t.data.title)).toEqual(['macOS', 'Tab 2', 'Linux']);
    expect(JSON.stringify(tabsBlock.nodes[0])).toContain('brew install quire');
  });

  it('a writer adds an emoji, a mention, inline math and a colour in place, each from its panel or the toolbar', async () => {
    const w = await newPage('Team', 'Thanks', 'Thanks');
    const editor = w.getByRole('textbox', { name: /Content of/ });
    const slash = slashIn(w);
    await editor.click();
    await w.keyboard.type('Thanks ');
    // An emoji: its panel opens on its field, Enter goes back to writing after it.
    await slash('emoji', 'Emoji');
    const emoji = w.getByRole('group', { name: 'Emoji' }).getByLabel('Emoji');
    await expect.poll(() => emoji.evaluate((el) => el === document.activeElement)).toBe(true);
    await emoji.fill('🎉');
    await w.keyboard.press('Enter');
    await w.keyboard.type(' to ');
    // A mention: members of the organization and pages of the space are offered; a page is taken.
    await slash('mention', 'Mention');
    const mentions = w.getByRole('group', { name: 'Mention' }).getByLabel('Mentions');
    const offered = await mentions.locator('option').allTextContents();
    expect(offered.filter((o) => o.startsWith('Member: ')).length).toBeGreaterThan(0);
    const page = offered.find((o) => o.startsWith('Page: '))!;
    await mentions.selectOption({ label: page });
    await mentions.press('Escape');
    await w.keyboard.type(' for ');
    await slash('inline', 'Inline math');
    const tex = w.getByRole('group', { name: 'Inline math' }).getByLabel('TeX formula');
    await tex.fill('a^2+b^2');
    await tex.press('Enter');
    await w.keyboard.press('Enter');
    // A colour on the selected word.
    await w.keyboard.type('Important');
    await editor.getByText('Important').waitFor();
    await w.keyboard.press('Shift+Home');
    // The colour goes on the editor's selection, which follows the page's on a later selectionchange
    // event: wait until it holds the word (a person is never this quick to reach the toolbar).
    const selected = () =>
      w.evaluate(() => {
        const { state } = (
          document.querySelector('.ProseMirror') as HTMLElement & {
            editor: { state: { doc: { textBetween(a: number, b: number): string }; selection: { from: number; to: number } } };
          }
        ).editor;
        return state.doc.textBetween(state.selection.from, state.selection.to);
      });
    await expect.poll(selected).toBe('Important');
    await w.getByRole('toolbar', { name: 'Formatting' }).getByLabel('Text colour').selectOption('red');
    await editor.locator('mark.color-red').getByText('Important').waitFor();
    await editor
      .locator('.mention')
      .getByText(`@${page.slice('Page: '.length)}`)
      .waitFor();
    await w.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 30_000 });
    await expectAccessible(w, 'editor with inlines');
    await w.screenshot({ path: `${shots}editor-inlines.png`, fullPage: true });

    // Content keeps the document the editor saved: every inline comes back as written, the emoji too.
    const [first, second] = (await savedDocument(w, 'Thanks')).nodes as DocumentBlockParagraph[];
    expect(first!.nodes.filter((n) => n.object === 'inline')).toMatchObject([
      { type: 'emoji', data: { code: '1f389' } },
      { type: 'mention', data: { ref: { kind: 'page', page: expect.any(String) } } },
      { type: 'inline-math', data: { formula: 'a^2+b^2' } },
    ]);
    expect(second!.nodes).toMatchObject([{ leaves: [{ text: 'Important', marks: [{ type: 'color', data: { text: 'red', background: 'default' } }] }] }]);
  });
});
