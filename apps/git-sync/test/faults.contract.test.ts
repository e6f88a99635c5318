import pg from 'pg';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { GetGitInfoRequest, GitInfo, ImportRepositoryRequest, QueueJobResponse } from '@quire/proto/gitsync';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { status } from '@grpc/grpc-js';
import { createLogger, unaryCall } from '@quire/service-kit';
import { connectNats } from '@quire/service-kit/nats';
import { connectDb, stopAll, testIdentity } from '@quire/service-kit/testing';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_REPO } from './fixtures.ts';
import { startGitServer } from './git-server.ts';
import { startGitSync, type GitSyncHarness } from './harness.ts';

let orgs: OrgsHarness;
let content: ContentHarness;
let repos: Awaited<ReturnType<typeof startGitServer>>;
let owner: TestUser;
let orgId: string;
let contentDb: pg.Client;

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  repos = await startGitServer();
  owner = await orgs.user('owner');
  orgId = (await orgs.organization(owner, [])).id;
  contentDb = await connectDb(content.databaseUrl);
});
afterAll(() => stopAll(contentDb, repos, content, orgs));

const createSpace = async () =>
  (await content.call<CreateSpaceRequest, Space>(content.client.createSpace, { organizationId: orgId, title: 'Docs', emoji: '', editMode: '', visibility: '' }, owner.id)).id;
const importRepo = (h: GitSyncHarness, spaceId: string, url: string) =>
  h.call<ImportRepositoryRequest, QueueJobResponse>(
    h.client.importRepository,
    { spaceId, repository: { url, ref: 'refs/heads/main', repoCacheId: '', repoTreeUrl: '', repoCommitUrl: '', repoProjectDirectory: '', force: false }, standalone: false },
    owner.id,
  );
const info = (h: GitSyncHarness, spaceId: string) => h.call<GetGitInfoRequest, GitInfo>(h.client.getGitInfo, { spaceId }, owner.id);
const revisionsOf = async (spaceId: string) => Number((await contentDb.query('SELECT count(*) FROM "Revision" WHERE "spaceId" = $1', [spaceId])).rows[0].count);

/** A stop before a job is applied: `atGate` resolves once a job waits there, `release` lets it (and later ones) on. */
function gate() {
  let reached!: () => void;
  let release!: () => void;
  const atGate = new Promise<void>((r) => (reached = r));
  const open = new Promise<void>((r) => (release = r));
  const beforeApply = async () => {
    reached();
    await open;
  };
  return { atGate, release, beforeApply };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const v = await probe();
    if (v !== undefined) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('a worker killed mid-job', () => {
  it('leaves the job to another worker, which applies it exactly once', async () => {
    await repos.create('fault', DOCS_REPO);
    const { atGate, release, beforeApply } = gate();
    // The first worker reads the repository, then stops before applying, as if killed there.
    const first = await startGitSync(content.address, { workers: 1, ackWaitMs: 1500, beforeApply });
    let second: GitSyncHarness | undefined;
    try {
      const spaceId = await createSpace();
      const { jobId } = await importRepo(first, spaceId, repos.url('fault'));
      await atGate;
      first.workers.kill();
      expect((await info(first, spaceId)).latestJob).toMatchObject({ id: jobId, state: 'running' });

      // A replica on the same queue and database gets the message once the ack wait is over.
      second = await startGitSync(content.address, { workers: 1, ackWaitMs: 1500, queue: first.queue, databaseUrl: first.databaseUrl });
      const done = await until('the job to finish', async () => {
        const job = (await info(second!, spaceId)).latestJob;
        return job?.state === 'done' ? job : undefined;
      });
      expect(done.revisionId).not.toBe('');
      const row = await first.store.getJob(jobId);
      expect(row).toMatchObject({ state: 'done', attempt: 2 });

      // The stalled first delivery wakes up: its attempt is stale, it writes nothing.
      release();
      await new Promise((r) => setTimeout(r, 1000));
      expect(await revisionsOf(spaceId)).toBe(2);
      expect(await first.store.getJob(jobId)).toMatchObject({ state: 'done', attempt: 2, revisionId: done.revisionId });
    } finally {
      release();
      await second?.stop();
      await first.stop();
    }
  });

  it('recognises an import applied just before the worker died', async () => {
    await repos.create('applied', { 'README.md': '# Applied\n' });
    const h = await startGitSync(content.address, { workers: 1 });
    const nc = await connectNats('nats://127.0.0.1:4222', 'fault-test', createLogger('t', 'silent'));
    try {
      const spaceId = await createSpace();
      const { jobId } = await importRepo(h, spaceId, repos.url('applied'));
      const applied = await until('the job to finish', async () => {
        const j = await h.store.getJob(jobId);
        return j?.state === 'done' ? j : undefined;
      });
      // As if the worker died after content wrote the revision and before the completion was recorded.
      const db = new pg.Client({ connectionString: h.databaseUrl });
      await db.connect();
      await db.query(`UPDATE "GitJob" SET state = 'applying', "revisionId" = NULL, "completedAt" = NULL WHERE id = $1`, [jobId]);
      await db.end();
      // The redelivery (a new message id: JetStream would drop the same one as a duplicate).
      await nc.jetstream().publish(h.queue.subject, JSON.stringify({ jobId }), { msgID: `${jobId}-again` });
      const job = await until('the job to be recognised', async () => {
        const j = await h.store.getJob(jobId);
        return j?.state === 'done' ? j : undefined;
      });
      expect(job).toMatchObject({ revisionId: applied.revisionId, attempt: 2 });
      expect(await revisionsOf(spaceId)).toBe(2);
    } finally {
      await nc.close();
      await h.stop();
    }
  });
});

describe('a job outliving the assertion it was accepted with', () => {
  it('is applied under the git-sync identity for the user who asked, after that assertion expired', async () => {
    await repos.create('late', DOCS_REPO);
    const { atGate, release, beforeApply } = gate();
    const gs = await startGitSync(content.address, { workers: 1, beforeApply });
    try {
      const spaceId = await createSpace();
      // The gateway's assertions of this request live one second.
      const gateway = testIdentity('gateway', { ttlSeconds: 1 });
      const request = {
        spaceId,
        repository: { url: repos.url('late'), ref: 'refs/heads/main', repoCacheId: '', repoTreeUrl: '', repoCommitUrl: '', repoProjectDirectory: '', force: false },
        standalone: false,
      };
      const { jobId } = await unaryCall<ImportRepositoryRequest, QueueJobResponse>(
        gs.client,
        gs.client.importRepository,
        request,
        { userId: owner.id },
        { identity: gateway, audience: 'git-sync' },
      );
      const original = await gateway.metadata('content', { userId: owner.id });
      await atGate;
      // Past its expiry and the verifiers' clock tolerance, the request's own assertion opens nothing.
      await new Promise((r) => setTimeout(r, 7000));
      await rejects(
        new Promise((resolve, reject) => content.client.getSpace({ spaceId }, original, (err, res) => (err ? reject(err) : resolve(res)))),
        status.UNAUTHENTICATED,
        /ERR_JWT_EXPIRED/,
      );
      release();
      const job = await until('the job to finish', async () => {
        const latest = (await info(gs, spaceId)).latestJob;
        return latest?.state === 'done' || latest?.state === 'failed' ? latest : undefined;
      });
      expect(job).toMatchObject({ id: jobId, state: 'done' });
      expect(await revisionsOf(spaceId)).toBe(2);
    } finally {
      release();
      await gs.stop();
    }
  }, 60_000);
});

describe('file: remotes', () => {
  it('are refused with the private network allowed, unless QUIRE_ALLOW_FILE_REMOTES allows them', async () => {
    const h = await startGitSync(content.address, { allowPrivateNetwork: true, allowFileRemotes: false });
    try {
      const spaceId = await createSpace();
      await rejects(importRepo(h, spaceId, repos.fileUrl('fault')), status.INVALID_ARGUMENT, /url: file: URLs are not allowed \(https:, http:\)/);
      await rejects(importRepo(h, spaceId, 'file:///etc'), status.INVALID_ARGUMENT, /file: URLs are not allowed/);
      expect(await revisionsOf(spaceId)).toBe(1);
    } finally {
      await h.stop();
    }
  });
});

describe('private addresses', () => {
  it('refuses loopback repositories unless the private network is allowed', async () => {
    const h = await startGitSync(content.address, { allowPrivateNetwork: false });
    try {
      const spaceId = await createSpace();
      const { jobId } = await importRepo(h, spaceId, repos.url('fault'));
      const job = await until('the job to fail', async () => {
        const j = (await info(h, spaceId)).latestJob;
        return j?.id === jobId && j.state === 'failed' ? j : undefined;
      });
      expect(job.error).toMatch(/url: "127\.0\.0\.1" resolves to 127\.0\.0\.1, a private or reserved address/);
      expect(await revisionsOf(spaceId)).toBe(1);
    } finally {
      await h.stop();
    }
  });
});
