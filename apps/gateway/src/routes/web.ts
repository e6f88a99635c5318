import { mkdirSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import fastifyStatic from '@fastify/static';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route the request limits do not count (the web app's static files: no service is called). */
    unlimited?: boolean;
  }
}

// Paths the app never shadows: an unknown one there answers the API's JSON 404.
const RESERVED = /^\/(?:v1|auth|docs|healthz|readyz)(?:[/?]|$)/;

// The web app must not be framed (clickjacking); scripts and styles come from this origin only
// (KaTeX and the editor set inline style attributes, hence 'unsafe-inline' for styles).
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const BUILDING =
  '<!doctype html><html lang="en"><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Quire</title><p>The web app is being built. This page reloads in a few seconds.</p></html>';

/**
 * The web app (apps/web's build) at the root of the origin: its files, hashed ones under
 * `/assets/` kept a year, and `index.html` for every other GET so that each of its URLs (the
 * API's `urls.app`) opens on reload. `/v1`, `/auth` and the docs keep their own routes and 404s.
 */
const web: FastifyPluginAsync<{ dist: string }> = async (app, { dist }) => {
  // `pnpm dev` starts the gateway while the app's first build is still being written.
  mkdirSync(dist, { recursive: true });
  const root = realpathSync(resolve(dist));
  await app.register(fastifyStatic, { root, serve: false });

  const fileOf = async (urlPath: string): Promise<string | undefined> => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0')) return undefined;
    const full = resolve(join(root, decoded));
    if (!full.startsWith(root + sep)) return undefined;
    const s = await stat(full).catch(() => undefined);
    return s?.isFile() ? full.slice(root.length + 1) : undefined;
  };

  app.get('/*', { config: { unlimited: true }, schema: { hide: true } }, async (req, reply) => {
    const path = req.url.split('?')[0]!;
    if (RESERVED.test(path)) return reply.callNotFound();
    void reply.header('x-content-type-options', 'nosniff');
    const file = path === '/' || path === '/index.html' ? undefined : await fileOf(path);
    if (file) {
      void reply.header('cache-control', file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      return reply.sendFile(file, { cacheControl: false });
    }
    // A missing hashed asset is a 404, never the page (a stale tab would parse HTML as script).
    if (path.startsWith('/assets/')) return reply.callNotFound();
    void reply.header('content-security-policy', CSP).header('cache-control', 'no-cache');
    // Under `pnpm dev` the API is ready before the app's first build is written: say so, and come back.
    if (!(await fileOf('/index.html'))) {
      return reply.code(503).header('retry-after', '5').type('text/html; charset=utf-8').send(BUILDING);
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
  });
};

export default web;
