import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitSyncServiceClient, type GetGitInfoRequest, type GitInfo, type ImportRepositoryRequest, type QueueJobResponse } from '@quire/proto/gitsync';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { GetRevisionRequest, Revision } from '@quire/proto/space-content';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { ensureDevKeys } from '@quire/infra/dev-keys';
import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { createClient } from '@quire/service-kit';
import { callAs, cloneTemplate, reservedPort, testServiceKeys, testSuffix, type TestDatabase } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_REPO } from './fixtures.ts';
import { startGitServer } from './git-server.ts';
import { dropQueue } from './harness.ts';

// `pnpm dev` runs git-sync as `tsx watch src/main.ts` with the keys `infra` made once in `.quire`
// (the `dev` script's *_FILE settings). Here the real process runs with that script's settings
// over a key directory made by the same step, is killed with jobs queued, and a new process over
// the same directory runs them: one without credentials, one with credentials sealed by the first.

const appDir = fileURLToPath(new URL('..', import.meta.url));
const repoState = resolve(appDir, '../../.quire');
const CREDS = { username: 'alice', password: 'p@ss:word' };

/** The `NAME=value` settings the `dev` script puts before its command, with `.quire` paths moved to `stateDir`. */
function devScriptEnv(stateDir: string): Record<string, string> {
  const script = (JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { scripts: { dev: string } }).scripts.dev;
  const env: Record<string, string> = {};
  for (const word of script.split(/\s+/)) {
    const at = word.indexOf('=');
    if (at <= 0) break;
    const value = word.slice(at + 1);
    const inState = relative(repoState, resolve(appDir, value));
    env[word.slice(0, at)] = value.includes('.quire/') && !inState.startsWith('..') ? join(stateDir, inState) : value;
  }
  return env;
}

let orgs: OrgsHarness;
let content: ContentHarness;
let repos: Awaited<ReturnType<typeof startGitServer>>;
let secured: Awaited<ReturnType<typeof startGitServer>>;
let owner: TestUser;
let orgId: string;
let database: TestDatabase;
let stateDir: string;
const suffix = testSuffix();
const queue = { subject: `jobs.gitsync.test.${suffix}`, consumer: `git-sync-test-${suffix}` };
const running = new Set<ChildProcess>();

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  [repos, secured, database] = await Promise.all([startGitServer(), startGitServer(CREDS), cloneTemplate('git-sync')]);
  owner = await orgs.user('owner');
  orgId = (await orgs.organization(owner, [])).id;
  // The service keys this test process's orgs and content trust, placed where `pnpm dev` keeps
  // its own: the preparation keeps them and makes the rest (secrets, trust document).
  stateDir = mkdtempSync(join(tmpdir(), 'quire-dev-state-'));
  mkdirSync(join(stateDir, 'service-keys'));
  for (const [name, pem] of Object.entries(testServiceKeys().privateKeys)) writeFileSync(join(stateDir, 'service-keys', `${name}.key`), pem);
  ensureDevKeys(stateDir);
});
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await dropQueue(queue);
  await database?.drop();
  await Promise.all([repos?.stop(), secured?.stop()]);
  await content?.stop();
  await orgs?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** git-sync's main as `pnpm dev` runs it (its dev script's settings), on this test's database, queue and services. */
async function startProcess(extra: Record<string, string> = {}) {
  const port = await reservedPort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: appDir,
    env: {
      PATH: process.env.PATH,
      ...devScriptEnv(stateDir),
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '3',
      CONTENT_URL: content.address,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      GIT_SYNC_PORT: String(port),
      METRICS_PORT: '0',
      GIT_SYNC_SUBJECT: queue.subject,
      GIT_SYNC_CONSUMER: queue.consumer,
      GIT_SYNC_CONSUMER_INACTIVE_MS: String(10 * 60_000),
      EVENTS_SUBJECT_PREFIX: `test.events.none.${suffix}`,
      // The test's repositories are served on loopback.
      QUIRE_ALLOW_PRIVATE_NETWORK: 'true',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => (running.delete(child), r())));
  const client = createClient(GitSyncServiceClient, `127.0.0.1:${port}`);
  const call = callAs(client, 'git-sync');
  const info = (spaceId: string) => call<GetGitInfoRequest, GitInfo>(client.getGitInfo, { spaceId }, owner.id);
  // Answering (a space without a link is NOT_FOUND) means it listens, its queue and workers are up.
  for (const until = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (child.exitCode !== null) throw new Error(`git-sync exited at start:\n${output}`);
    const answered = await info('none').then(
      () => true,
      (err: { code?: number }) => err.code === 5,
    );
    if (answered) break;
    if (Date.now() > until) throw new Error(`git-sync did not answer:\n${output}`);
  }
  return {
    info,
    importRepo: (spaceId: string, url: string) =>
      call<ImportRepositoryRequest, QueueJobResponse>(
        client.importRepository,
        { spaceId, repository: { url, ref: 'refs/heads/main', repoCacheId: '', repoTreeUrl: '', repoCommitUrl: '', repoProjectDirectory: '', force: false }, standalone: false },
        owner.id,
      ),
    output: () => output,
    async kill(signal: NodeJS.Signals) {
      client.close();
      child.kill(signal);
      await exited;
    },
  };
}

const createSpace = async () =>
  (await content.call<CreateSpaceRequest, Space>(content.client.createSpace, { organizationId: orgId, title: 'Docs', emoji: '', editMode: '', visibility: '' }, owner.id)).id;
const pageTitles = async (spaceId: string) =>
  (
    await content.callContent<GetRevisionRequest, Revision>(
      content.spaceContent.getRevision,
      { spaceId, revisionId: '', metadata: true, withMarkdown: false, withDocuments: false },
      owner.id,
    )
  ).pages.map((p) => p.title);
const keyFiles = () =>
  Object.fromEntries(['keys', 'service-keys'].flatMap((d) => readdirSync(join(stateDir, d)).map((f) => [`${d}/${f}`, readFileSync(join(stateDir, d, f), 'utf8')])));

describe('git-sync restarted under pnpm dev', () => {
  it('runs the jobs the killed process queued, with and without sealed credentials', async () => {
    await repos.create('public', DOCS_REPO);
    await secured.create('private', DOCS_REPO);
    const [open, closed] = await Promise.all([createSpace(), createSpace()]);
    const kept = keyFiles();
    // The first process takes no job (no worker): both are certainly still queued when it dies.
    const first = await startProcess({ GIT_SYNC_WORKERS: '0' });
    const jobs = {
      [open]: (await first.importRepo(open, repos.url('public'))).jobId,
      [closed]: (await first.importRepo(closed, secured.url('private', CREDS))).jobId,
    };
    await first.kill('SIGKILL');

    // `pnpm dev` started again prepares the keys again: every one is kept.
    ensureDevKeys(stateDir);
    expect(keyFiles()).toEqual(kept);
    const second = await startProcess();
    try {
      for (const [spaceId, jobId] of Object.entries(jobs)) {
        let job: GitInfo['latestJob'];
        for (const until = Date.now() + 90_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
          job = (await second.info(spaceId)).latestJob;
          if (job?.state === 'done' || job?.state === 'failed') break;
        }
        expect(job, second.output()).toMatchObject({ id: jobId, state: 'done', error: '' });
        expect(await pageTitles(spaceId)).toEqual(['Introduction', 'Getting started', 'Changelog', 'Reference']);
      }
    } finally {
      await second.kill('SIGTERM');
    }
  }, 180_000);
});
