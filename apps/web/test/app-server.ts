import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFailed } from 'vitest';
import { startGateway } from '@quire/gateway/testing';
import { tenant } from '@quire/gateway/testing/fixtures';
import { Role } from '@quire/policy';
import { reservedPort } from '@quire/service-kit/testing';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const dist = fileURLToPath(new URL('../dist-e2e/', import.meta.url));

/** Serves the app (built once per run: global-setup.ts) from a real gateway over the worker's shared services. */
export async function startApp(env: Record<string, string> = {}) {
  // The session cookie's origin must be known before the gateway starts.
  const port = await reservedPort();
  const origin = `http://127.0.0.1:${port}`;
  const g = await startGateway({ QUIRE_WEB_DIST: dist, QUIRE_PUBLIC_URL: origin, RATE_LIMIT_ADDRESS_PER_MINUTE: '100000', RATE_LIMIT_PER_MINUTE: '100000', ...env });
  await g.app.listen({ host: '127.0.0.1', port });
  return { g, origin };
}

/** The app served, `browser` launched, and a writer and a reviewer in an organization of the writer's: the review suites' start. */
export async function writerAndReviewer(browser: ReturnType<typeof chromiumFor>) {
  const app = await startApp();
  await browser.launch();
  const { owner: writer, reviewer, orgId } = await tenant(app.g, { reviewer: Role.ROLE_REVIEW });
  return { app, writer, reviewer, orgId };
}

/**
 * A review suite's start and end: the app, Chromium, and a writer and a reviewer in the writer's
 * organization, ready in its `beforeAll` (read them in tests) and stopped after the suite.
 */
export function reviewSuite(suite: string) {
  const browser = chromiumFor(suite);
  const s = { browser } as { browser: typeof browser } & Awaited<ReturnType<typeof writerAndReviewer>>;
  beforeAll(async () => void Object.assign(s, await writerAndReviewer(browser)));
  afterAll(async () => {
    await browser.close();
    await s.app?.g.stop();
  });
  return s;
}

/** Signs `user` in on the app's sign-in page, which `path` sends to first. */
export async function signIn(page: Page, origin: string, user: { email: string; password: string }, path = '/') {
  await page.goto(origin + path);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const present = existsSync(CHROMIUM);
if (!present && !process.env.CI) console.warn(`browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
/** Browser suites run wherever Chromium is, and always in CI, where a missing browser fails them. */
export const describeInChromium = describe.skipIf(!present && !process.env.CI);

/** One suite's Chromium: its contexts closed with it, a screenshot of each page whose test failed (named after `suite`). */
export function chromiumFor(suite: string) {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const context = async (options: BrowserContextOptions = {}) => {
    const made = await browser!.newContext(options);
    contexts.push(made);
    return made;
  };
  return {
    async launch() {
      if (!present) throw new Error(`${CHROMIUM} is missing: CI must install chromium (.ci/run)`);
      mkdirSync(shots, { recursive: true });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    },
    context,
    /** A page of its own for `user`, signed in through the sign-in page `path` leads to; dialogs are accepted. */
    async signedIn(origin: string, user: { email: string; password: string }, path = '/', options: BrowserContextOptions = {}): Promise<Page> {
      const page = await (await context({ viewport: { width: 1280, height: 900 }, ...options })).newPage();
      page.on('dialog', (d) => void d.accept());
      onTestFailed(() => page.screenshot({ path: `${shots}failed-${suite}-${user.email.split('-')[0]}.png`, fullPage: true }).then(() => undefined));
      await signIn(page, origin, user, path);
      return page;
    },
    async close() {
      for (const c of contexts) await c.close();
      await browser?.close();
    },
  };
}

/** axe-core finds nothing serious or critical on the page as it stands. */
export async function expectAccessible(page: Page, view: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${view}: ${v.id} ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}
