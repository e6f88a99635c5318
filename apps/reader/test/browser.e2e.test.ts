import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { TestUser } from '@quire/orgs/testing';
import { ok } from '@quire/gateway/testing';
import { SignJWT } from 'jose';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, spaceWith, startReader } from './harness.ts';

// What a visitor sees, in Debian's Chromium. Skipped only when Chromium is missing outside CI
// (CI installs it: .ci/run); in CI a missing browser fails the run.
const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present && !process.env.CI) console.warn(`browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));

describe.skipIf(!present && !process.env.CI)('the reader in Chromium', () => {
  let h: Awaited<ReturnType<typeof startReader>>;
  let browser: Browser;
  let origin: string;
  let owner: TestUser;
  let orgId: string;
  let base: string;
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, status = 200) => ok(h.g.call(owner, method, `/v1/orgs/${orgId}${url}`, body), status);

  beforeAll(async () => {
    if (!present) throw new Error(`${CHROMIUM} is missing: CI must install chromium (.ci/run)`);
    h = await startReader();
    await h.reader.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = h.reader.app.server.address() as { port: number };
    origin = `http://127.0.0.1:${addr.port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    owner = await h.g.orgs.user('owner');
    orgId = (await h.g.orgs.organization(owner, [])).id;
    const guides = await spaceWith(h.g, owner, orgId, 'Guides', [
      page('Welcome', '## Getting started\n\nRead the **guides** first.\n\n```ts\nconst answer: number = 42;\n```\n\n## Next steps\n\nThen the API.'),
      page('Installation', 'Install with `pnpm add quire`.', [page('Troubleshooting', 'When the flux capacitor fails, restart it.')]),
      page('Configuration', 'All the settings.'),
    ]);
    const v1 = await spaceWith(h.g, owner, orgId, 'v1', [page('Endpoints', 'Version one endpoints.')]);
    const v2 = await spaceWith(h.g, owner, orgId, 'v2', [page('Endpoints', 'Version two endpoints.')]);
    const site = await api('POST', '/sites', { title: 'Acme Docs', spaces: [guides] }, 201);
    const section = await api('POST', `/sites/${site.id}/sections`, { spaceId: v1, title: 'API reference' }, 201);
    await api('POST', `/sites/${site.id}/site-spaces`, { spaceId: v2, sectionId: section.id }, 201);
    await api('POST', `/sites/${site.id}/publish`);
    base = `${origin}/${orgId}/${site.id}`;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  const open = async (url: string, viewport = { width: 1280, height: 900 }): Promise<Page> => {
    const p = await (await browser.newContext({ viewport })).newPage();
    const res = await p.goto(url);
    expect(res?.status()).toBe(200);
    return p;
  };

  it('lets an anonymous visitor read and move through sections, variants and pages', async () => {
    const p = await open(`${base}/`);
    await expect(p.locator('h1').first().textContent()).resolves.toBe('Welcome');
    await p.getByRole('link', { name: 'API reference' }).click();
    await expect(p.locator('article').textContent()).resolves.toContain('Version one endpoints.');
    await p.locator('.variants summary').click();
    await p.getByRole('link', { name: 'v2' }).click();
    await expect(p.locator('article').textContent()).resolves.toContain('Version two endpoints.');
    await p.locator('.brand').click();
    await p.waitForURL(`${base}`);
    await p.locator('#nav').getByRole('link', { name: 'Troubleshooting' }).click();
    expect(p.url()).toBe(`${base}/installation/troubleshooting`);
    await expect(p.locator('.crumbs').textContent()).resolves.toContain('Installation');
    await p.getByRole('link', { name: /Next/ }).click();
    await expect(p.locator('h1').textContent()).resolves.toBe('Configuration');
    await p.close();
  });

  it('finds a page with the search dialog (Ctrl-K)', async () => {
    const p = await open(`${base}/`);
    await p.keyboard.press('Control+k');
    await expect(p.locator('dialog[open]').count()).resolves.toBe(1);
    await p.keyboard.type('capacitor');
    const hit = p.locator('.results a', { hasText: 'Troubleshooting' });
    await hit.waitFor();
    await hit.click();
    await p.waitForURL(/troubleshooting/);
    await p.close();
  });

  it('closes the search dialog on the first Escape while its box holds text; finds a hint by its text, never by its tags', async () => {
    const space = await spaceWith(h.g, owner, orgId, 'Notes', [
      page('Backups', '{% hint style="warning" %}\nNever skip the backups.\n{% endhint %}\n\nRestore them weekly. {% hint style="info" %} Test a restore. {% endhint %}\n'),
    ]);
    const site = await api('POST', '/sites', { title: 'Notes site', spaces: [space] }, 201);
    await api('POST', `/sites/${site.id}/publish`);
    const p = await open(`${origin}/${orgId}/${site.id}/`);
    const results = p.locator('#search-dialog .results');
    await p.keyboard.press('Control+k');
    await p.keyboard.type('endhint');
    await results.getByText('No results for “endhint”').waitFor();
    await p.keyboard.press('Escape');
    await expect(p.locator('dialog[open]').count()).resolves.toBe(0);
    await p.keyboard.press('Control+k');
    await expect(p.locator('#search-dialog input').inputValue()).resolves.toBe('endhint');
    await p.keyboard.type('restore');
    await results.locator('a', { hasText: 'Backups' }).waitFor();
    await p.keyboard.press('Escape');
    await expect(p.locator('dialog[open]').count()).resolves.toBe(0);
    await p.close();
  }, 60_000);

  it('toggles the theme and keeps it across visits, with a screenshot in each theme', async () => {
    const p = await open(`${base}/`);
    const theme = () => p.evaluate(() => document.documentElement.dataset.theme);
    const background = () => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // The site's default (its customization's themes.default), until the visitor chooses.
    expect(await theme()).toBe('light');
    expect(await background()).toBe('rgb(255, 255, 255)');
    await p.screenshot({ path: `${shots}light.png` });
    await p.locator('[data-theme-toggle]').click();
    expect(await theme()).toBe('dark');
    expect(await background()).toBe('rgb(17, 19, 23)');
    await p.screenshot({ path: `${shots}dark.png` });
    await p.reload();
    expect(await theme()).toBe('dark');
    await expect(p.locator('[data-theme-toggle]').getAttribute('aria-label')).resolves.toBe('Theme: dark');
    // System follows the device: dark here.
    await p.emulateMedia({ colorScheme: 'dark' });
    await p.locator('[data-theme-toggle]').click();
    expect(await theme()).toBe('system');
    expect(await background()).toBe('rgb(17, 19, 23)');
    await p.screenshot({ path: `${shots}system-dark.png` });
    await p.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe('rgb(255, 255, 255)');
    await p.reload();
    expect(await theme()).toBe('system');
    await p.close();
  });

  it('shows the mobile menu at 360 px', async () => {
    const p = await open(`${base}/installation`, { width: 360, height: 740 });
    const menu = p.getByRole('button', { name: 'Menu' });
    expect(await menu.isVisible()).toBe(true);
    expect(await p.locator('#nav').isVisible()).toBe(false);
    await menu.click();
    expect(await p.locator('#nav').isVisible()).toBe(true);
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await p.screenshot({ path: `${shots}mobile.png` });
    await p.close();
  });

  it('reaches every visible link with the keyboard, with a visible focus', async () => {
    const p = await open(`${base}/installation`);
    const links = await p.$$eval('a[href]', (as) => as.filter((a) => (a as HTMLElement).checkVisibility()).map((a) => (a as HTMLAnchorElement).href + '|' + a.textContent));
    const reached = new Set<string>();
    for (let i = 0; i < links.length * 2 + 10; i++) {
      await p.keyboard.press('Tab');
      const focused = await p.evaluate(() => {
        const el = document.activeElement as HTMLAnchorElement | null;
        if (!el || el.tagName !== 'A') return null;
        return { key: el.href + '|' + el.textContent, outline: getComputedStyle(el).outlineStyle };
      });
      if (focused) {
        reached.add(focused.key);
        expect(focused.outline).not.toBe('none');
      }
    }
    expect(links.filter((l) => !reached.has(l))).toEqual([]);
    await p.close();
  });

  it('has no serious or critical accessibility violations (axe-core), in both themes', async () => {
    const p = await open(`${base}/`);
    for (const t of ['light', 'dark']) {
      await p.evaluate((theme) => (document.documentElement.dataset.theme = theme), t);
      const { violations } = await new AxeBuilder({ page: p }).analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${t}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    }
    await p.close();
  }, 60_000);

  it('opens a share link, then refuses it once deactivated', async () => {
    const space = await spaceWith(h.g, owner, orgId, 'Partners', [page('Partner guide', 'For partners only.')]);
    const site = await api('POST', '/sites', { title: 'Partner site', spaces: [space] }, 201);
    await api('PATCH', `/sites/${site.id}`, { visibility: 'share-link' });
    await api('POST', `/sites/${site.id}/publish`);
    const link = await api('POST', `/sites/${site.id}/share-links`, { name: 'Partners' }, 201);
    const key = new URL(link.urls.published).searchParams.get('shareKey');
    const p = await (await browser.newContext()).newPage();
    const res = await p.goto(`${origin}/${orgId}/${site.id}/?shareKey=${key}`);
    expect(res?.status()).toBe(200);
    expect(await p.locator('article').textContent()).toContain('For partners only.');
    // The key now lives in a cookie: plain links work.
    expect((await p.goto(`${origin}/${orgId}/${site.id}/partner-guide`))?.status()).toBe(200);
    await api('PATCH', `/sites/${site.id}/share-links/${link.id}`, { active: false });
    const after = await p.goto(`${origin}/${orgId}/${site.id}/partner-guide`);
    expect(after?.status()).toBe(403);
    expect(await p.locator('h1').textContent()).toBe('This link no longer works');
    await p.close();
  }, 60_000);

  it('shows claim-conditioned content to a visitor whose token has the claim, and hides it otherwise', async () => {
    const everyone = await spaceWith(h.g, owner, orgId, 'Everyone', [page('Public notes', 'Hello visitor.')]);
    const beta = await spaceWith(h.g, owner, orgId, 'Beta program', [page('Beta notes', 'Secret beta feature.')]);
    const site = await api('POST', '/sites', { title: 'Customer portal', spaces: [everyone] }, 201);
    await api('PATCH', `/sites/${site.id}`, { visibility: 'visitor-auth' });
    const section = await api('POST', `/sites/${site.id}/sections`, { spaceId: beta, title: 'Beta' }, 201);
    await api('PATCH', `/sites/${site.id}/sections/${section.id}`, { condition: 'visitor.claims.beta === true' });
    await api('POST', `/sites/${site.id}/publish`);
    const { privateKey } = await api('GET', `/sites/${site.id}/publishing/auth`);
    const token = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(privateKey));
    const url = `${origin}/${orgId}/${site.id}/`;

    const without = await (await browser.newContext()).newPage();
    expect((await without.goto(url))?.status()).toBe(401);
    expect((await without.goto(`${url}?jwt_token=${await token({ beta: false })}`))?.status()).toBe(200);
    expect(await without.getByRole('link', { name: 'Beta' }).count()).toBe(0);
    await without.close();

    const withClaim = await (await browser.newContext()).newPage();
    expect((await withClaim.goto(`${url}?jwt_token=${await token({ beta: true })}`))?.status()).toBe(200);
    await withClaim.getByRole('link', { name: 'Beta' }).click();
    expect(await withClaim.locator('article').textContent()).toContain('Secret beta feature.');
    await withClaim.close();
  }, 90_000);

  it("counts the pages a visitor reads (two page views, one visitor, one session) in the site's insights", async () => {
    const space = await spaceWith(h.g, owner, orgId, 'Counted', [page('First', 'One.'), page('Second', 'Two.')]);
    const site = await api('POST', '/sites', { title: 'Counted site', spaces: [space] }, 201);
    await api('POST', `/sites/${site.id}/publish`);
    const p = await open(`${origin}/${orgId}/${site.id}/`);
    await p.getByRole('link', { name: /Next/ }).click();
    await p.waitForURL(/second$/);
    await p.close();
    await h.reader.flushInsights();
    const aggregate = async () =>
      (
        await api('POST', `/sites/${site.id}/insights/events/aggregate`, {
          select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
          range: 'last24Hours',
        })
      ).columns.map((c: { values: number[] }) => c.values[0]);
    let seen: number[] = [];
    for (let i = 0; i < 100 && !(seen[0]! >= 2); i++) {
      seen = await aggregate();
      if (!(seen[0]! >= 2)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual([2, 1, 1]);
  }, 60_000);
});
