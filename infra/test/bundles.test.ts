import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

// Each app deploys as one bundle of its code and the workspace packages (tsup.config.ts), with
// third-party packages left in node_modules: the app must declare every package its bundle
// imports, or the built app fails at start in its image (pnpm gives it only what it declares).

const root = fileURLToPath(new URL('../../', import.meta.url));
const apps = readdirSync(`${root}apps`).filter((name) => existsSync(`${root}apps/${name}/src/main.ts`));
const builtins = new Set(builtinModules);

/** The package a bare import names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The third-party packages a bundle of `entryPoints` (in `dir`) imports, as tsup would leave them external. */
async function externalImports(dir: string, entryPoints: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const thirdParty: Plugin = {
    name: 'third-party',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || builtins.has(args.path) || args.path.startsWith('@quire/')) return undefined;
        found.add(packageOf(args.path));
        return { path: args.path, external: true };
      });
    },
  };
  const result = await build({
    entryPoints,
    outdir: 'out',
    absWorkingDir: dir,
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'silent',
    plugins: [thirdParty],
  });
  // Files a bundle reads through `createRequire` (a JSON document, say) come from a package as well.
  for (const file of result.outputFiles) {
    for (const [, specifier] of file.text.matchAll(/createRequire\(import\.meta\.url\)\(\s*["']([^"']+)["']/g)) found.add(packageOf(specifier!));
  }
  return found;
}

// Each app's bundle and its command line (run from source); the ops image's CLI (infra).
const bundles = [
  ...apps.map((app) => ({ dir: `apps/${app}`, entries: ['src/main.ts', 'src/cli.ts', 'src/cli/commands.ts'].filter((entry) => existsSync(`${root}apps/${app}/${entry}`)) })),
  { dir: 'infra', entries: ['src/cli.ts', 'src/prisma.config.ts'] },
];

describe('every bundle declares exactly the packages it imports', () => {
  it.each(bundles)('$dir', async ({ dir, entries }) => {
    const pkg = JSON.parse(readFileSync(`${root}${dir}/package.json`, 'utf8')) as { dependencies: Record<string, string> };
    const declared = new Set(Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@quire/')));
    const imported = await externalImports(`${root}${dir}`, entries);
    // The CLI runs Prisma's from its package: a dependency no import names.
    if (dir === 'infra') imported.add('prisma');
    const missing = [...imported].filter((name) => !declared.has(name)).sort();
    expect(missing, `${dir}/package.json lacks dependencies its built bundle imports`).toEqual([]);
    const unused = [...declared].filter((name) => !imported.has(name)).sort();
    expect(unused, `${dir}/package.json declares dependencies its built bundle never imports`).toEqual([]);
  });
});

// The benchmarks run under plain node (tsx), outside a test run, and import the services' test
// harnesses (`@quire/<app>/testing`) to start them: a harness that imports vitest stops them at load.
const benchmarks = readdirSync(`${root}bench/src`).filter((name) => name.endsWith('.ts'));

describe('no benchmark imports the test runner', () => {
  it.each(benchmarks)('%s', async (file) => {
    expect(await externalImports(`${root}bench`, [`src/${file}`])).not.toContain('vitest');
  });
});
