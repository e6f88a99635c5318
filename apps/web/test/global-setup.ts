import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import gatewaySetup from '../../gateway/test/global-setup.ts';

// The browser suites' run: the run's shared stack of services (the gateway suite's set-up), and
// the app built once for every file (`QUIRE_WEB_REBUILD=off` keeps the last build).
export default async function setup(project: TestProject) {
  // app-server.ts's `dist` (not imported: it loads vitest's test API, which a globalSetup may not).
  const dist = fileURLToPath(new URL('../dist-e2e/', import.meta.url));
  const teardown = await gatewaySetup(project);
  if (!existsSync(`${dist}/index.html`) || process.env.QUIRE_WEB_REBUILD !== 'off')
    await build({ root: fileURLToPath(new URL('..', import.meta.url)), logLevel: 'error', build: { outDir: dist, emptyOutDir: true, sourcemap: false } });
  return teardown;
}
