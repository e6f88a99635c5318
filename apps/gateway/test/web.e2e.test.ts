import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, test } from 'vitest';
import { expectError, startGateway, type Gateway } from './harness.ts';

// The web app's static files at the root of the gateway's origin (QUIRE_WEB_DIST), beside /v1,
// /auth and /docs, which it never shadows.

const INDEX = '<!doctype html><title>Quire</title><div id="root"></div>';

/** A build of the web app in a new folder, and a file beside it (`${dist}-secret.txt`) that no path may reach. */
function writeBuild() {
  const dist = mkdtempSync(join(tmpdir(), 'quire-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dist, 'theme.js'), '/* theme */');
  writeFileSync(`${dist}-secret.txt`, 'TOP-SECRET-BYTES');
  return dist;
}

const it = test.extend<{ webGateway: { g: Gateway; dist: string }; get: (url: string) => Promise<LightMyRequestResponse> }>({
  // Its own gateway, one per process: it serves a build of this file's. No test writes to the build.
  webGateway: [
    async ({}, use) => {
      const dist = writeBuild();
      const g = await startGateway({ QUIRE_WEB_DIST: dist });
      await use({ g, dist });
      await g.stop();
      rmSync(dist, { recursive: true, force: true });
      rmSync(`${dist}-secret.txt`, { force: true });
    },
    { scope: 'file' },
  ],
  get: async ({ webGateway: { g } }, use) => use((url) => g.app.inject({ method: 'GET', url })),
});

describe('the web app at the root of the origin', () => {
  it('answers index.html for / and for every app path (reload and shared links open the view)', async ({ get }) => {
    for (const path of ['/', '/sign-in', '/o/org1', '/o/org1/s/space1', '/o/org1/s/space1/~/changes/3', '/s/space1/getting-started/install', '/s/space1/~/revisions/rev1?x=1']) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self';.*frame-ancestors 'none'/);
    }
  });

  it('serves hashed assets as immutable and other files revalidated, without counting them against the limits', async ({ get }) => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['x-ratelimit-limit']).toBeUndefined();
    const theme = await get('/theme.js');
    expect(theme.body).toBe('/* theme */');
    expect(theme.headers['cache-control']).toBe('no-cache');
  });

  it('answers 503 with Retry-After, not an error, while the build is not written yet', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'quire-web-empty-'));
    const early = await startGateway({ QUIRE_WEB_DIST: empty });
    try {
      const res = await early.app.inject({ method: 'GET', url: '/o/org1' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('The web app is being built');
      writeFileSync(join(empty, 'index.html'), INDEX);
      expect((await early.app.inject({ method: 'GET', url: '/o/org1' })).body).toBe(INDEX);
    } finally {
      await early.stop();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('answers 404 for a missing asset rather than the page', async ({ get }) => {
    expectError(await get('/assets/index-gone.js'), 404);
  });

  it('never shadows /v1, /auth or the docs', async ({ get }) => {
    expectError(await get('/v1/no-such-route'), 404, /No route GET \/v1\/no-such-route/);
    expectError(await get('/v1'), 404);
    expectError(await get('/v1/orgs'), 401);
    expectError(await get('/auth/session'), 401);
    expectError(await get('/auth/nothing-here'), 404);
    const openapi = await get('/v1/openapi.json');
    expect(openapi.json().openapi).toBe('3.1.0');
    expect((await get('/docs/')).statusCode).toBe(200);
  });

  it('an attacker cannot read files outside the build with traversal or encoded paths', async ({ webGateway: { dist }, get }) => {
    const name = `${dist.split('/').pop()}-secret.txt`;
    for (const path of [`/../${name}`, `/%2e%2e/${name}`, `/..%2f${name}`, `/assets/..%2f..%2f${name}`, '/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/theme.js%00.html', '/%E0%A4%A']) {
      const res = await get(path);
      expect(res.body, path).not.toContain('TOP-SECRET-BYTES');
      expect(res.body, path).not.toContain('root:');
    }
  });
});
