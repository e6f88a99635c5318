import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startCollab, type Collab } from '@quire/collab/testing';
import { ok } from '@quire/gateway/testing';
import { tenant } from '@quire/gateway/testing/fixtures';
import { Role } from '@quire/policy';
import { reservedPort } from '@quire/service-kit/testing';
import { chromiumFor, describeInChromium, startApp } from './app-server.ts';

// Two members in two browser contexts editing one paragraph of a change request's page at once,
// through the gateway's `/collab` to a real collaboration server over the shared services.

/** The co-editing databases of this browser context, by name. */
const keptPages = async () => (await indexedDB.databases()).flatMap((d) => (d.name?.startsWith('quire-collab:') ? [d.name] : [])).sort();

type App = Awaited<ReturnType<typeof startApp>>;

/** The app on a gateway of its own whose `/collab` reaches a collaboration server of its own: one replica of each, as a load balancer may pair them. */
async function appWithCollab(): Promise<App & { collab: Collab }> {
  const port = await reservedPort();
  const app = await startApp({ COLLAB_UPSTREAM_URL: `http://127.0.0.1:${port}` });
  const collab = await startCollab(app.g, { COLLAB_PORT: String(port), COLLAB_ORIGINS: app.origin, QUIRE_PUBLIC_URL: app.origin });
  return { ...app, collab };
}

describeInChromium('editing a page together in Chromium', () => {
  const browser = chromiumFor('collab');
  // `other`: a second gateway and collaboration replica over the same services and NATS.
  let app: App & { collab: Collab }, other: App & { collab: Collab };

  beforeAll(async () => {
    [app, other] = await Promise.all([appWithCollab(), appWithCollab()]);
    await browser.launch();
  });
  afterAll(async () => {
    await browser.close();
    for (const a of [app, other]) {
      await a?.collab.stop();
      await a?.g.stop();
    }
  });

  /** The editor's first paragraph. */
  const paragraph = (p: Page) =>
    p
      .getByRole('textbox', { name: /^Content of/ })
      .locator('p')
      .first();
  /** Its text, without the other members' carets (their names are drawn inside it). */
  const text = (p: Page) =>
    paragraph(p).evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      for (const caret of copy.querySelectorAll('.collaboration-carets__caret')) caret.remove();
      return copy.textContent;
    });

  /** The editor's sync state, as the status line says it. */
  const status = (p: Page) => p.getByRole('status').first().textContent();

  /** A change request's page reading "Middle", its editor's path, and two members at it in two browser contexts (the second through `second`'s gateway and replica). */
  async function twoAtOnePage(second: App = app) {
    const { g } = app;
    const { owner, editor, reader, orgId } = await tenant(g, { editor: Role.ROLE_EDIT, reader: Role.ROLE_READ });
    const space = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Together' }), 201);
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pair' }), 201);
    const crBase = `/v1/spaces/${space.id}/change-requests/${cr.number}`;
    await ok(g.call(owner, 'POST', `${crBase}/content`, { changes: [{ operation: 'insert_page', title: 'Shared', document: { markdown: 'Middle' } }] }));
    const { pages } = await ok(g.call(owner, 'GET', `${crBase}/content`));
    const path = `/o/${orgId}/s/${space.id}/~/changes/${cr.number}/edit/${pages[0].path}`;
    const [a, b] = await Promise.all([browser.signedIn(app.origin, owner, path), browser.signedIn(second.origin, editor, path)]);
    for (const p of [a, b]) {
      await expect.poll(() => text(p), { timeout: 20_000 }).toBe('Middle');
      await expect.poll(() => status(p)).toBe('Saved');
    }
    const saved = async () => (await ok(g.call(owner, 'GET', `${crBase}/content/page/${pages[0].id}?format=markdown`))).markdown.trim();
    const merge = () => ok(g.call(owner, 'POST', `${crBase}/merge`));
    return { a: a!, b: b!, path, saved, reader, merge, owner };
  }

  /** `a` types at the paragraph's start and `b` at its end, in turns: both screens then show both. */
  async function typeInTurns(a: Page, b: Page) {
    await paragraph(a).click();
    await a.keyboard.press('Home');
    await paragraph(b).click();
    await b.keyboard.press('End');
    for (const word of ['one', 'two', 'three']) {
      await a.keyboard.type(`${word}-a `);
      await b.keyboard.type(` ${word}-b`);
    }
    const expected = 'one-a two-a three-a Middle one-b two-b three-b';
    for (const p of [a, b]) await expect.poll(() => text(p), { timeout: 10_000 }).toBe(expected);
    return expected;
  }

  it('two members typing into the same paragraph converge, and the page is saved with both', async () => {
    const { a, b, saved } = await twoAtOnePage();
    const expected = await typeInTurns(a, b);
    // Each sees the other's caret with their name (the test users' display names are their roles').
    await expect.poll(() => a.locator('.collaboration-carets__label').allTextContents()).toContain('editor');
    await expect.poll(() => b.locator('.collaboration-carets__label').allTextContents()).toContain('owner');

    await expect.poll(saved, { timeout: 10_000 }).toBe(expected);
  });

  it('two members on two collaboration replicas converge, and the page is saved with both', async () => {
    const { a, b, saved } = await twoAtOnePage(other);
    // Each replica holds the page, with one member on it: every keystroke crossed NATS.
    const name = [...app.collab.server.hocuspocus.documents.keys()].find((n) => other.collab.server.hocuspocus.documents.has(n))!;
    expect([app, other].map((r) => r.collab.server.hocuspocus.documents.get(name)?.getConnectionsCount())).toEqual([1, 1]);
    const expected = await typeInTurns(a, b);
    await expect.poll(saved, { timeout: 10_000 }).toBe(expected);
  });

  it('what a member types offline is kept: sent on reconnecting, and after the tab was closed, when the page opens again', async () => {
    const { a, b, path, saved } = await twoAtOnePage();
    const context = a.context();
    await context.setOffline(true);
    await expect.poll(() => status(a)).toBe('Offline: changes kept on this device');
    await paragraph(a).click();
    await a.keyboard.press('End');
    await a.keyboard.type(' one');
    // Back online, the provider connects again and sends it.
    await context.setOffline(false);
    for (const p of [a, b]) await expect.poll(() => text(p), { timeout: 10_000 }).toBe('Middle one');
    await expect.poll(() => status(a)).toBe('Saved');

    await context.setOffline(true);
    await expect.poll(() => status(a)).toBe('Offline: changes kept on this device');
    // What the status line says from here on.
    await a.evaluate(() => {
      const line = document.querySelector('[role=status].save-state')!;
      const said: (string | null)[] = [];
      (globalThis as unknown as { said: typeof said }).said = said;
      new MutationObserver(() => said.push(line.textContent)).observe(line, { childList: true, characterData: true, subtree: true });
    });
    await a.keyboard.type(' two');
    await expect.poll(() => text(a)).toBe('Middle one two');
    // Said to be kept only once IndexedDB has committed the words: the tab is closed right then.
    await expect.poll(() => status(a)).toBe('Offline: changes kept on this device');
    const said = await a.evaluate(() => (globalThis as unknown as { said: string[] }).said);
    expect(said).toContain('Offline: keeping changes on this device…');
    expect(said.at(-1)).toBe('Offline: changes kept on this device');
    // Leaving asks first (the dialog is accepted); the words are then only in this browser.
    const asked: string[] = [];
    a.on('dialog', (d) => asked.push(d.type()));
    await a.close({ runBeforeUnload: true });
    await expect.poll(() => a.isClosed()).toBe(true);
    expect(asked).toEqual(['beforeunload']);
    expect(await text(b)).toBe('Middle one');

    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto(`${app.origin}${path}`);
    for (const p of [again, b]) await expect.poll(() => text(p), { timeout: 20_000 }).toBe('Middle one two');
    await expect.poll(saved, { timeout: 10_000 }).toBe('Middle one two');
  });

  it("signing out asks first while a page holds changes not sent, then deletes the member's pages kept on this device, and no one else's", async () => {
    const { a, owner } = await twoAtOnePage();
    // Another member's page, as their sign-in on this device left it.
    await a.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const open = indexedDB.open('quire-collab:someone-else:page');
          open.onsuccess = () => resolve(open.result.close());
          open.onerror = () => reject(open.error);
        }),
    );
    const mine = await a.evaluate(keptPages);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatch(new RegExp(`^quire-collab:${owner.id}:`));
    // Words typed offline in a tab then closed: only this device has them.
    const context = a.context();
    await context.setOffline(true);
    await expect.poll(() => status(a)).toBe('Offline: changes kept on this device');
    await paragraph(a).click();
    await a.keyboard.type(' unsent');
    await expect.poll(() => status(a)).toBe('Offline: changes kept on this device');
    await a.close();
    await context.setOffline(false);
    const home = await context.newPage();
    await home.goto(`${app.origin}/`);
    const signOut = home.getByRole('button', { name: /^Sign out/ });
    const asked: string[] = [];
    home.once('dialog', (d) => void (asked.push(d.message()), d.dismiss()));
    await signOut.click();
    await expect.poll(() => asked).toEqual([expect.stringMatching(/^A page you edited has changes not sent to Quire yet/)]);
    // Declined: still signed in, the page still kept.
    expect(home.url()).not.toMatch(/sign-in/);
    expect(await signOut.count()).toBe(1);
    expect(await home.evaluate(keptPages)).toEqual(mine);

    home.once('dialog', (d) => void d.accept());
    await signOut.click();
    // Under load the sign-out request takes over a second.
    await expect.poll(() => home.url(), { timeout: 10_000 }).toMatch(/\/sign-in/);
    await expect.poll(() => home.evaluate(keptPages), { timeout: 10_000 }).toEqual(['quire-collab:someone-else:page']);
  });

  it('signing out in another tab closes the open editor within 2 s, saying why', async () => {
    const { a } = await twoAtOnePage();
    const other = await a.context().newPage();
    await other.goto(`${app.origin}/`);
    await Promise.all([other.waitForResponse((r) => r.url().endsWith('/auth/sign-out') && r.ok()), other.getByRole('button', { name: /^Sign out/ }).click()]);
    await expect.poll(() => a.getByText(/session has ended/i).count(), { timeout: 2_000 }).toBe(1);
    await expect.poll(() => a.getByRole('textbox', { name: /^Content of/ }).count()).toBe(0);
  });

  it('a reader cannot type, and merging the change request stops the open editors, who are told', async () => {
    const { a, b, path, reader, merge } = await twoAtOnePage();
    const r = await browser.signedIn(app.origin, reader, path);
    await expect.poll(() => text(r), { timeout: 20_000 }).toBe('Middle');
    const box = (p: Page) => p.getByRole('textbox', { name: /^Content of/ });
    await expect.poll(() => box(r).getAttribute('contenteditable')).toBe('false');
    await paragraph(r).click();
    await r.keyboard.type('forged');
    expect(await text(r)).toBe('Middle');

    await merge();
    for (const p of [a, b]) {
      await expect.poll(() => p.getByRole('alert').textContent(), { timeout: 5_000 }).toBe('The change request is merged: editing has stopped');
      await expect.poll(() => box(p).getAttribute('contenteditable')).toBe('false');
    }
    await paragraph(a).click();
    await a.keyboard.type('late');
    expect(await text(a)).toBe('Middle');
  });
});
