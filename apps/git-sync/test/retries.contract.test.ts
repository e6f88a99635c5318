import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { ImportRepositoryRequest, QueueJobResponse } from '@quire/proto/gitsync';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { stopAll } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitServer } from './git-server.ts';
import { startGitSync, type GitSyncHarness } from './harness.ts';

// Transient failures of the Git host are retried through JetStream's redelivery (with its backoff);
// refused credentials are not: the job fails at once, and the sync log says why.

const CREDS = { username: 'bob', password: 'right' };

let orgs: OrgsHarness;
let content: ContentHarness;
let gitSync: GitSyncHarness;
let repos: Awaited<ReturnType<typeof startGitServer>>;
let flaky: { url: (name: string) => string; failing: number; stop: () => Promise<void> };
let owner: TestUser;
let orgId: string;

/** A proxy to the Git server that answers 503 to the next `failing` requests, as a host's overloaded front would. */
async function startFlakyProxy(target: string) {
  const upstream = new URL(target);
  const state = { failing: 0 };
  const server = http.createServer((req, res) => {
    if (state.failing > 0) {
      state.failing--;
      res.writeHead(503).end('unavailable');
      return;
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: (name: string) => `http://127.0.0.1:${port}/${name}.git`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  gitSync = await startGitSync(content.address, { workers: 1 });
  repos = await startGitServer(CREDS);
  flaky = await startFlakyProxy(repos.url('x').replace(/\/x\.git$/, ''));
  owner = await orgs.user('owner');
  orgId = (await orgs.organization(owner, [])).id;
});
afterAll(() => stopAll(flaky, repos, gitSync, content, orgs));

const createSpace = async () =>
  (await content.call<CreateSpaceRequest, Space>(content.client.createSpace, { organizationId: orgId, title: 'Docs', emoji: '', editMode: '', visibility: '' }, owner.id)).id;

const importRepo = (spaceId: string, url: string, h = gitSync) =>
  h.call<ImportRepositoryRequest, QueueJobResponse>(
    h.client.importRepository,
    { spaceId, repository: { url, ref: 'refs/heads/main', repoCacheId: '', repoTreeUrl: '', repoCommitUrl: '', repoProjectDirectory: '', force: false }, standalone: false },
    owner.id,
  );

/** The space's sync log once its newest entry is over. */
async function settled(spaceId: string, h = gitSync) {
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const [entry] = await h.store.log(spaceId, { take: 10 });
    if (entry && !['queued', 'running'].includes(entry.result)) return entry;
  }
  throw new Error('the job did not finish');
}

const withCreds = (url: string, creds: typeof CREDS) => url.replace('http://', `http://${creds.username}:${creds.password}@`);

describe('git job retries', () => {
  it('retries a 503 from the Git host with backoff, then imports', async () => {
    await repos.create('flaky', { 'README.md': '# Flaky\n' });
    const spaceId = await createSpace();
    flaky.failing = 1;
    const started = Date.now();
    await importRepo(spaceId, withCreds(flaky.url('flaky'), CREDS));
    const entry = await settled(spaceId);
    expect(entry).toMatchObject({ result: 'done', attempts: 2, reason: null, pagesChanged: 1 });
    // The redelivery waited for JetStream's backoff (a second or more) rather than running at once.
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(flaky.failing).toBe(0);
  });

  it('does not retry refused credentials: the log says why after one attempt', async () => {
    await repos.create('locked', { 'README.md': '# Locked\n' });
    const spaceId = await createSpace();
    await importRepo(spaceId, withCreds(repos.url('locked'), { username: 'bob', password: 'wrong' }));
    const entry = await settled(spaceId);
    expect(entry).toMatchObject({ result: 'failed', attempts: 1, reason: expect.stringMatching(/^the Git host refused the credentials \(HTTP 401\): /) });
  });

  it('gives up on a host that stays down after the last delivery, with git’s words', async () => {
    await repos.create('down', { 'README.md': '# Down\n' });
    const spaceId = await createSpace();
    // More failures than the deliveries of a job (two here).
    flaky.failing = 1000;
    const local = await startGitSync(content.address, { workers: 1, maxDeliver: 2 });
    try {
      await importRepo(spaceId, flaky.url('down'), local);
      expect(await settled(spaceId, local)).toMatchObject({ result: 'failed', attempts: 2, reason: expect.stringMatching(/503/) });
    } finally {
      flaky.failing = 0;
      await local.stop();
    }
  });
});
