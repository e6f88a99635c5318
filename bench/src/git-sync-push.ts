import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { GitSyncServiceClient } from '@quire/proto/gitsync';
import { createClient } from '@quire/service-kit';
import { callAs } from '@quire/service-kit/testing';
// Not a dependency of the bench package yet: its harness by path.
import { commitTo, gitIn, startGitServer } from '@quire/git-sync/testing';
import { freshDatabases, PORTS, ready, seedOwner, startContentApps, startGitSyncApp } from './lib/deployed.ts';
import { timedClone } from './lib/git.ts';
import { writeResult } from './lib/results.ts';

// Continuous Git Sync on a real documentation repository, on the services as deployed (orgs,
// content, git-sync with one worker, each from its bundle): the first import of the repository
// beside a plain `git clone` of it in the same run, then pushes that change one page, each
// delivered to git-sync as a GitHub push webhook the moment it lands: push-to-visible is from that
// delivery to the import's recorded completion (its revision the space's then). Beside each, the
// same commit imported whole (forced: every page rebuilt), the cost the incremental import saves.
// BENCH_REPO: a clone of the repository (bare or not; never committed here), BENCH_PROJECT_DIR:
// its docs' folder (where SUMMARY.md or .gitbook.yaml is), BENCH_RUNS.

const REPO = process.env.BENCH_REPO;
if (!REPO) throw new Error('BENCH_REPO: the path of a clone of a GitBook documentation repository');
const PROJECT = process.env.BENCH_PROJECT_DIR ?? '';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const run = promisify(execFile);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number) => Math.round(n);

const databases = await freshDatabases(['orgs', 'content', 'git-sync']);
const { owner, org } = await seedOwner(databases.urls.orgs, 'bench-git-push');
const content = await startContentApps(databases.urls);
startGitSyncApp(databases.urls['git-sync'], { GIT_SYNC_WORKERS: '1', QUIRE_ALLOW_PRIVATE_NETWORK: 'true', ORGS_URL: `127.0.0.1:${PORTS.orgs}`, LOG_LEVEL: 'info' });
const gitSyncClient = createClient(GitSyncServiceClient, `127.0.0.1:${PORTS.gitSync}`);
const callGitSync = callAs(gitSyncClient, 'git-sync');
const repos = await startGitServer();
const jobs = new pg.Client({ connectionString: databases.urls['git-sync'] });
await jobs.connect();

/** The milliseconds from `since` to the job's recorded completion (it failing throws). */
async function completed(jobId: string, since: number): Promise<number> {
  for (;;) {
    const { rows } = await jobs.query<{ state: string; error: string | null; completed: number | null; skip: string | null }>(
      'SELECT state::text, error, "skipReason" AS skip, extract(epoch FROM "completedAt") * 1000 AS completed FROM "GitJob" WHERE id = $1',
      [jobId],
    );
    const job = rows[0];
    if (job?.state === 'failed' || job?.skip) throw new Error(`job ${jobId}: ${job.error ?? job.skip}`);
    if (job?.state === 'done') return Number(job.completed) - since;
    await new Promise((r) => setTimeout(r, 5));
  }
}

try {
  const bare = join(repos.root, 'real.git');
  await run('git', ['clone', '--quiet', '--bare', REPO, bare]);
  const branch = (await gitIn(bare, 'symbolic-ref', '--short', 'HEAD')).trim();
  const ref = `refs/heads/${branch}`;
  const url = repos.url('real');
  const files = (await gitIn(bare, 'ls-tree', '-r', '--name-only', 'HEAD')).split('\n').filter(Boolean);
  // The page each push changes: the docs' markdown files, one after the other (not the table of contents).
  const pages = files.filter((f) => f.startsWith(PROJECT ? `${PROJECT}/` : '') && f.endsWith('.md') && !f.endsWith('SUMMARY.md'));
  const options = { url, ref, repoCacheId: '', repoTreeUrl: '', repoCommitUrl: '', repoProjectDirectory: PROJECT, force: false };
  await ready(() => callGitSync(gitSyncClient.getGitInfo, { spaceId: 'none' }, owner.id).catch((err: { code?: number }) => (err.code === 5 ? undefined : Promise.reject(err))));

  const clone: number[] = [];
  const firstImport: number[] = [];
  const pushToVisible: number[] = [];
  const wholeImport: number[] = [];
  let spaceId = '';
  for (let r = 0; r < RUNS; r++) {
    clone.push(await timedClone(url));

    spaceId = await content.createSpace(org.id, owner.id, `Real ${r}`);
    const called = Date.now();
    const { jobId } = await callGitSync(gitSyncClient.importRepository, { spaceId, repository: options, standalone: false }, owner.id);
    firstImport.push(await completed(jobId, called));
  }

  // The last run's space: its webhook, then pushes of one page each.
  const { secret } = await callGitSync(gitSyncClient.setWebhook, { spaceId, repository: options, pollSeconds: 0 }, owner.id);
  for (let r = 0; r < RUNS; r++) {
    const page = pages[(r * 97) % pages.length]!;
    const text = (await gitIn(bare, 'show', `HEAD:${page}`)) + `\nEdited by push ${r}.\n`;
    await commitTo(bare, { [page]: text }, `Edit ${page}`, branch);
    const after = (await gitIn(bare, 'rev-parse', 'HEAD')).trim();
    const body = Buffer.from(JSON.stringify({ ref, after, repository: { full_name: 'bench/docs' } }));
    const headers = {
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    };
    const delivered = Date.now();
    const answer = await callGitSync(gitSyncClient.receiveWebhook, { spaceId, headers, body });
    if (answer.result !== 'queued') throw new Error(`push ${r}: ${answer.reason}`);
    pushToVisible.push(await completed(answer.jobId, delivered));
    // The same commit imported whole: a forced import rebuilds every page.
    const called = Date.now();
    const whole = await callGitSync(gitSyncClient.importRepository, { spaceId, repository: { ...options, force: true }, standalone: false }, owner.id);
    wholeImport.push(await completed(whole.jobId, called));
  }

  const result = {
    bench: 'git-sync-push',
    date: new Date().toISOString(),
    repository: { files: files.length, pages: pages.length, projectDirectory: PROJECT },
    runs: RUNS,
    gitCloneMs: clone.map(round),
    importFirstMs: firstImport.map(round),
    importOverClone: Math.round((median(firstImport) / median(clone)) * 10) / 10,
    pushToVisibleMs: pushToVisible.map(round),
    samePushImportedWholeMs: wholeImport.map(round),
  };
  console.log(
    `${files.length} files (${pages.length} pages): git clone ${round(median(clone))} ms; first import ${round(median(firstImport))} ms (${result.importOverClone}x clone, target <= 3x); one-page push to visible ${round(median(pushToVisible))} ms (the same commit imported whole ${round(median(wholeImport))} ms)`,
  );
  writeResult('git-sync-push', result);
} finally {
  await jobs.end();
  await repos.stop();
  gitSyncClient.close();
  await content.stop();
  await databases.drop();
}
