import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { startContent } from '@quire/content/testing';
import { startGitSync } from '@quire/git-sync/testing';
import { startOrgs } from '@quire/orgs/testing';
import { startReview } from '@quire/review/testing';
import { migrateTemplate, testIdentity } from '@quire/service-kit/testing';
import { buildApp } from '../../apps/gateway/src/app.ts';
import { connectServices } from '../../apps/gateway/src/clients.ts';
import { loadGatewayConfig } from '../../apps/gateway/src/config.ts';
import { percentiles, writeResult } from './lib/results.ts';

// The web app (apps/web's production build, served by the gateway over orgs, content, review and git-sync)
// in Debian's Chromium:
// 1. JavaScript shipped for the first view (the library after sign-in), gzip, target < 300 KB;
// 2. navigation to an editable 200-block page in a change request, until the editor holds every
//    block, target < 1 s; baseline in the same run: navigation to the same page rendered to read;
// 3. keystroke to screen (keydown to the next frame after the editor's DOM changed) while typing
//    in a 2,000-block page, p95 target < 50 ms; baseline: the same typing in a plain
//    contenteditable holding the same 2,000 blocks as static HTML, in the same browser.

const CHROMIUM = '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const KEYS = Number(process.env.BENCH_KEYS ?? 120);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const dist = here('../../apps/web/dist');
if (!existsSync(`${dist}/index.html`)) execFileSync('pnpm', ['--filter', '@quire/web', 'build'], { stdio: 'inherit' });

await Promise.all(['orgs', 'content', 'review', 'git-sync'].map((s) => migrateTemplate(s, here(`../../apps/${s}`))));
const orgs = await startOrgs();
const content = await startContent(orgs.address);
const [review, gitSync] = await Promise.all([startReview(orgs.address, content.address), startGitSync(content.address)]);
const port = 18390;
const origin = `http://127.0.0.1:${port}`;
const config = loadGatewayConfig({
  ORGS_URL: orgs.address,
  CONTENT_URL: content.address,
  REVIEW_URL: review.address,
  GIT_SYNC_URL: gitSync.address,
  QUIRE_WEB_DIST: dist,
  QUIRE_PUBLIC_URL: origin,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_ADDRESS_PER_MINUTE: '1000000',
  RATE_LIMIT_BUCKET: `bench_web_${process.pid}`,
});
const services = connectServices(config, testIdentity('gateway'));
const app = await buildApp(config, services);
await app.listen({ host: '127.0.0.1', port });

const owner = await orgs.user('owner');
const orgId = (await orgs.organization(owner, [])).id;
const call = async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> => {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${owner.token}` }, ...(body ? { payload: body as object } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
};

/** A page of `n` blocks cycling through headings, paragraphs, lists, code and hints. */
function blocks(n: number): string {
  const kinds = [
    (i: number) => `## Section ${i}`,
    (i: number) => `Paragraph ${i}: ${'Quire keeps documentation close to the people who write it. '.repeat(3)}`,
    (i: number) => `- item ${i} one\n- item ${i} two`,
    (i: number) => `\`\`\`ts\nexport const value${i} = ${i};\n\`\`\``,
    (i: number) => `{% hint style="info" %}\nHint ${i}\n{% endhint %}`,
  ];
  return Array.from({ length: n }, (_, i) => kinds[i % kinds.length]!(i)).join('\n\n') + '\n';
}

async function spaceWithPage(title: string, markdown: string) {
  const space = await call<{ id: string }>('POST', `/v1/orgs/${orgId}/spaces`, { title });
  const cr = await call<{ number: number }>('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'seed' });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.number}/content`, { changes: [{ operation: 'insert_page', title: 'Long page', document: { markdown } }] });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.number}/merge`);
  const edit = await call<{ number: number }>('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'edit' });
  return { space: space.id, edit: `/o/${orgId}/s/${space.id}/~/changes/${edit.number}/edit/long-page`, read: `/s/${space.id}/long-page` };
}

const small = await spaceWithPage('Two hundred', blocks(200));
const large = await spaceWithPage('Two thousand', blocks(2000));

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();

// 1. The first view's JavaScript: every script the library view loads, each gzipped.
const scripts = new Map<string, number>();
page.on('response', async (res) => {
  if (res.request().resourceType() === 'script' && res.ok()) scripts.set(res.url(), gzipSync(await res.body(), { level: 9 }).length);
});
await page.goto(`${origin}/o/${orgId}`);
await page.getByLabel('Email').fill(owner.email);
await page.getByLabel('Password').fill(owner.password);
await page.getByRole('button', { name: 'Sign in' }).click();
await page.getByRole('heading', { name: 'Library' }).waitFor();
await page.waitForLoadState('networkidle');
const firstViewGzipKB = Math.round(([...scripts.values()].reduce((a, b) => a + b, 0) / 1024) * 10) / 10;
page.removeAllListeners('response');

// 2. Navigation to the editable 200-block page, against the same page rendered to read.
async function navigate(path: string, ready: (p: Page) => Promise<void>): Promise<number> {
  await page.goto('about:blank');
  const t0 = performance.now();
  await page.goto(origin + path);
  await ready(page);
  return performance.now() - t0;
}
const editorReady = (count: number) => async (p: Page) => {
  await p.waitForFunction((n) => (document.querySelector('.ProseMirror[contenteditable=true]')?.childElementCount ?? 0) >= n, count, { timeout: 60_000, polling: 'raf' });
};
const readReady = async (p: Page) => {
  await p.waitForFunction(() => (document.querySelector('.document')?.childElementCount ?? 0) >= 200, undefined, { timeout: 60_000, polling: 'raf' });
};
// A first load of each warms the caches the way a member's second visit is.
await navigate(small.edit, editorReady(200));
await navigate(small.read, readReady);
const editTimes: number[] = [];
const readTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  editTimes.push(await navigate(small.edit, editorReady(200)));
  readTimes.push(await navigate(small.read, readReady));
}

// 3. Keystroke to screen in the 2,000-block page, then in a plain contenteditable with its HTML.
const INSTRUMENT = `(() => {
  const w = window; w.__lat = [];
  document.addEventListener('keydown', () => {
    const t0 = performance.now();
    requestAnimationFrame(() => setTimeout(() => w.__lat.push(performance.now() - t0), 0));
  }, true);
})()`;
async function typeInto(selector: string): Promise<number[]> {
  await page.evaluate(INSTRUMENT);
  const target = page.locator(selector).locator('p').nth(500);
  await target.click();
  await page.keyboard.press('End');
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    await page.waitForTimeout(20);
  }
  await page.waitForTimeout(200);
  return page.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
}
await navigate(large.edit, editorReady(2000));
const editorLatency = await typeInto('.ProseMirror');
await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 60_000 });
const html = await page.locator('.ProseMirror').innerHTML();
await page.goto('about:blank');
await page.setContent(`<!doctype html><div id="plain" contenteditable="true">${html}</div>`);
const plainLatency = await typeInto('#plain');

const p95 = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(0.95 * (xs.length - 1))]! * 10) / 10;
writeResult('web', {
  date: new Date().toISOString(),
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
  firstView: { scripts: scripts.size, gzipKB: firstViewGzipKB, targetKB: 300 },
  navigationToEditable200Blocks: { runs: RUNS, ms: percentiles(editTimes), targetMs: 1000, baselineReadView: percentiles(readTimes) },
  keystrokeToScreen2000Blocks: {
    keys: KEYS,
    editorMs: { ...percentiles(editorLatency), p95: p95(editorLatency) },
    targetP95Ms: 50,
    baselinePlainContentEditable: { ...percentiles(plainLatency), p95: p95(plainLatency) },
  },
  bundle: readFileSync(`${dist}/index.html`, 'utf8').match(/assets\/index-[\w-]+\.js/)?.[0],
});

await browser.close();
await app.close();
for (const c of services.channels) c.client.close();
await Promise.all([review.stop(), gitSync.stop()]);
await content.stop();
await orgs.stop();
