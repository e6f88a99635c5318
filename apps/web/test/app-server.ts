import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { startGateway } from '@quire/gateway/testing';
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
const root = fileURLToPath(new URL('..', import.meta.url));
export const dist = fileURLToPath(new URL('../dist-e2e/', import.meta.url));

/** Builds the app (once per run) and serves it from a real gateway over the real services. */
export async function startApp(env: Record<string, string> = {}) {
  if (!existsSync(`${dist}/index.html`) || process.env.QUIRE_WEB_REBUILD !== 'off')
    await build({ root, logLevel: 'warn', build: { outDir: dist, emptyOutDir: true, sourcemap: false } });
  // The session cookie's origin must be known before the gateway starts.
  const port = await reservedPort();
  const origin = `http://127.0.0.1:${port}`;
  const g = await startGateway({ QUIRE_WEB_DIST: dist, QUIRE_PUBLIC_URL: origin, RATE_LIMIT_ADDRESS_PER_MINUTE: '100000', RATE_LIMIT_PER_MINUTE: '100000', ...env });
  await g.app.listen({ host: '127.0.0.1', port });
  return { g, origin };
}

/** Signs `user` in on the app's sign-in page, which `path` sends to first. */
export async function signIn(page: Page, origin: string, user: { email: string; password: string }, path = '/') {
  await page.goto(origin + path);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
