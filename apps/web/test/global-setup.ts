import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import gatewaySetup from '../../gateway/test/global-setup.ts';

// The browser suites' run: the services' templates, and the app built once for every file
// (`QUIRE_WEB_REBUILD=off` keeps the last build).
export default async function setup() {
  // app-server.ts's `dist` (not imported: it loads vitest's test API, which a globalSetup may not).
  const dist = fileURLToPath(new URL('../dist-e2e/', import.meta.url));
  const teardown = await gatewaySetup();
  if (!existsSync(`${dist}/index.html`) || process.env.QUIRE_WEB_REBUILD !== 'off')
    await build({ root: fileURLToPath(new URL('..', import.meta.url)), logLevel: 'error', build: { outDir: dist, emptyOutDir: true, sourcemap: false } });
  return teardown;
}
