import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { leaseSharedProcess, prepareTemplates, TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import type { TestProject } from 'vitest/node';
import { uncovered } from './gitbook-spec.ts';
import { STACK_SERVICES, type StackAddresses } from './stack.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The code the stack runs: its fingerprint names the shared stack, so that a run after an edit
 * starts a stack of the new code while one of the old code idles out. Generated code is left out
 * (its sources, the protos and Prisma schemas, are in).
 */
function fingerprint(): string {
  const hash = createHash('sha256').update(root);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'gen', 'generated', 'dist'].includes(entry.name)) walk(path);
      } else if (/\.(ts|tsx|proto|prisma|sql|json)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        hash.update(`${relative(root, path)}\0`).update(readFileSync(path));
      }
    }
  };
  walk(join(root, 'proto'));
  for (const group of ['apps', 'packages'])
    for (const name of readdirSync(join(root, group)))
      for (const part of ['src', 'prisma', 'test']) if (existsSync(join(root, group, name, part))) walk(join(root, group, name, part));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The run's services: one stack shared by the gateway's, the reader's and the web app's suites
 * (stack-host.ts, in a process of its own, leased for the run and kept a minute after, so that the
 * next suite or run finds it started). The workers reach it at the addresses provided, signing
 * with the keys its services trust; a file that stops, kills or reconfigures a service starts a
 * stack of its own in its worker, from the templates made here.
 */
export default async function setup(project: TestProject) {
  // The workers inherit it: each appends the operations it served and validated (setup.ts).
  const coverageDir = mkdtempSync(join(tmpdir(), 'quire-spec-'));
  const coverage = (process.env.QUIRE_SPEC_COVERAGE = join(coverageDir, 'operations'));
  const sweep = await prepareTemplates(...STACK_SERVICES);
  const env: NodeJS.ProcessEnv = { ...process.env, QUIRE_PRIVATE_HOSTS: TEST_PRIVATE_HOST };
  // The stack outlives this run: its databases and streams carry a mark of its own, not this run's.
  delete env.QUIRE_TEST_RUN;
  const lease = await leaseSharedProcess<{ stack: StackAddresses; serviceKeys: unknown }>(
    `quire-test-stack-${fingerprint()}`,
    fileURLToPath(new URL('./stack-host.ts', import.meta.url)),
    env,
  );
  process.env.QUIRE_TEST_SERVICE_KEYS = JSON.stringify(lease.info.serviceKeys);
  project.provide('stack', lease.info.stack);
  return async () => {
    lease.release();
    await sweep();
    const text = readFileSync(coverage, { encoding: 'utf8', flag: 'a+' });
    rmSync(coverageDir, { recursive: true, force: true });
    // Only a whole run speaks for every operation (the package's test script): a run of some files names some.
    if (process.env.QUIRE_SPEC_COVERAGE_GATE !== 'on') return;
    const missing = uncovered(text);
    if (missing.length) throw new Error(`operations the gateway serves that no test answered successfully (checked against GitBook's OpenAPI document): ${missing.join(', ')}`);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackAddresses;
  }
}
