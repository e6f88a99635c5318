import { readRepo, startGitServer } from '@quire/git-sync/testing';
import { describe, expect, vi } from 'vitest';
import { expectError } from './harness.ts';
import { test } from './fixtures.ts';

// Each test in an organization of its own (fixtures.ts), on a new space of it (`space`).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

const CREDS = { username: 'bob', password: 's3cret-token' };

type GitServer = Awaited<ReturnType<typeof startGitServer>>;

/** A fixture: a Git server of the test's own (`auth`: behind basic auth), stopped after it. */
const gitServer =
  (auth?: typeof CREDS) =>
  async ({}, use: (server: GitServer) => Promise<void>) => {
    const server = await startGitServer(auth);
    await use(server);
    await server.stop();
  };

const it = test.extend<{
  /** Repositories served without auth, and behind basic auth with CREDS. */
  repos: GitServer;
  secured: GitServer;
  /** GET git/info (as the owner) until the latest job is over. */
  settled: (spaceId: string) => Promise<Json>;
}>({
  repos: gitServer(),
  secured: gitServer(CREDS),
  settled: async ({ g, team: { owner } }, use) =>
    use(async (spaceId) => {
      for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
        const res = await g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/info`);
        const state = res.json().job?.state;
        if (state === 'done' || state === 'failed') return res.json();
      }
      throw new Error('the git job did not finish');
    }),
});

describe('POST /v1/spaces/{spaceId}/git/import and /export', () => {
  it('validates the body, the caller and the space', async ({ g, team: { owner, reader, outsider }, space: { id: spaceId } }) => {
    const url = `/v1/spaces/${spaceId}/git/import`;
    expectError(await g.call(owner, 'POST', url, { ref: 'refs/heads/main' }), 400, /url/);
    expectError(await g.call(owner, 'POST', url, { url: 'https://example.com/r.git' }), 400, /ref/);
    expectError(await g.call(owner, 'POST', url, { url: 'https://example.com/r.git', ref: 'main' }), 400, /ref: must be a full Git ref/);
    expectError(await g.call(owner, 'POST', url, { url: 'ftp://example.com/r.git', ref: 'refs/heads/main' }), 400, /url: ftp: URLs are not allowed/);
    expectError(await g.call(owner, 'POST', url, { url: 'https://example.com/r.git', ref: 'refs/heads/main', force: 'yes' }), 400, /force/);
    expectError(await g.call(owner, 'POST', url, { url: 'https://example.com/r.git', ref: 'refs/heads/main', timestamp: 'yesterday' }), 400, /timestamp/);
    expectError(await g.call(owner, 'POST', url, { url: 'https://example.com/r.git', ref: 'refs/heads/main', gitInfo: { provider: 'bitbucket' } }), 400, /provider/);
    expectError(await g.call(owner, 'POST', url, { url: 'https://example.com/r.git', ref: 'refs/heads/main', extra: 1 }), 400);
    expectError(await g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/export`, { url: 'https://example.com/r.git', ref: 'refs/heads/main' }), 400, /commitMessage/);
    expectError(
      await g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/export`, { url: 'https://example.com/r.git', ref: 'refs/heads/main', commitMessage: '' }),
      400,
      /commitMessage/,
    );
    const body = { url: 'https://example.com/r.git', ref: 'refs/heads/main' };
    expectError(await g.call(null, 'POST', url, body), 401);
    expectError(await g.call(reader, 'POST', url, body), 403, /Git sync/);
    expectError(await g.call(outsider, 'POST', url, body), 404);
    expectError(await g.call(owner, 'POST', '/v1/spaces/nope/git/import', body), 404);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/info`), 404, /No Git sync/);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/git/info`), 404);
  });

  it('imports a repository behind basic auth: 204, then the info, the space and its content show it', async ({
    g,
    team: { owner, orgId },
    space: { id: spaceId },
    secured,
    settled,
  }) => {
    await secured.create('handbook', {
      'README.md': '# Handbook\n\nSee [setup](setup/README.md).\n',
      'SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n* [Setup](setup/README.md)\n  * [Linux](setup/linux.md)\n',
      'setup/README.md': '# Setup\n',
      'setup/linux.md': '# Linux\n\n![shot](../.gitbook/assets/shot.png)\n',
      '.gitbook/assets/shot.png': Buffer.from([137, 80, 78, 71]),
    });
    const res = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/import`, {
      url: secured.url('handbook', CREDS),
      ref: 'refs/heads/main',
      repoTreeURL: 'https://github.com/acme/handbook/tree/main',
      repoCommitURL: 'https://github.com/acme/handbook/commit',
      timestamp: '2026-11-01T10:00:00.000Z',
      gitInfo: { provider: 'github', url: 'https://github.com/acme/handbook' },
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    const info = await settled(spaceId);
    expect(info).toEqual({
      repoName: 'handbook',
      installationProvider: 'github',
      integration: 'git-sync',
      url: 'https://github.com/acme/handbook',
      updatedAt: expect.any(String),
      job: {
        id: expect.any(String),
        direction: 'import',
        state: 'done',
        revision: expect.any(String),
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        createdAt: expect.any(String),
        startedAt: expect.any(String),
        completedAt: expect.any(String),
        filesDone: 4,
        filesTotal: 4,
      },
    });
    expect(JSON.stringify(info)).not.toContain(CREDS.password);
    // The audit log records who started it and where from, never the repository's credentials.
    const started = await vi.waitFor(
      async () => {
        const row = (await g.orgs.audit(orgId, 1)).find((r) => r.action === 'git.import_started' && r.targetId === spaceId);
        expect(row).toBeDefined();
        return row!;
      },
      { timeout: 10_000 },
    );
    expect(started).toMatchObject({ actor: owner.id, details: { url: expect.stringContaining('/handbook'), ref: 'refs/heads/main' } });
    expect(JSON.stringify(started)).not.toContain(CREDS.password);

    const space = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}`)).json();
    expect(space.gitSync).toEqual({
      repoName: 'handbook',
      installationProvider: 'github',
      integration: 'git-sync',
      url: 'https://github.com/acme/handbook',
      updatedAt: info.updatedAt,
    });
    expect(space.revision).toBe(info.job.revision);
    const listed = (await g.call(owner, 'GET', `/v1/orgs/${orgId}/spaces`)).json();
    expect(listed.items.find((s: { id: string }) => s.id === spaceId).gitSync.repoName).toBe('handbook');
    expect(listed.items.find((s: { id: string; gitSync?: unknown }) => s.id !== spaceId && s.gitSync)).toBeUndefined();

    const content = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`)).json();
    expect(content.pages.map((p: { title: string }) => p.title)).toEqual(['Handbook', 'Setup']);
    expect(content.git).toMatchObject({ oid: info.job.commit, url: `https://github.com/acme/handbook/commit/${info.job.commit}`, ref: 'refs/heads/main' });
    expect(content.files.map((f: { name: string }) => f.name)).toEqual(['shot.png']);
  });

  it('reports a failed import with its reason and changes nothing', async ({ g, team: { owner }, space: { id: spaceId }, secured, settled }) => {
    await secured.create('locked', { 'README.md': '# Locked\n' });
    const before = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}`)).json().revision;
    const res = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/import`, { url: secured.url('locked', { username: 'bob', password: 'wrong' }), ref: 'refs/heads/main' });
    expect(res.statusCode).toBe(204);
    const info = await settled(spaceId);
    expect(info.job).toMatchObject({ state: 'failed', error: expect.stringMatching(/Authentication failed|401|could not read/i) });
    expect(info.url).toBe(secured.url('locked'));
    expect((await g.call(owner, 'GET', `/v1/spaces/${spaceId}`)).json().revision).toBe(before);
  });

  it('exports the space to a repository', async ({ g, team: { owner }, space: { id: spaceId }, repos, settled }) => {
    await repos.create('source', { 'README.md': '# Start\n\nHello.\n', 'more.md': '# More\n' });
    const target = await repos.create('target');
    expect((await g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/import`, { url: repos.url('source'), ref: 'refs/heads/main' })).statusCode).toBe(204);
    expect((await settled(spaceId)).job.state).toBe('done');
    const res = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/export`, { url: repos.url('target'), ref: 'refs/heads/docs', commitMessage: 'Docs from Quire' });
    expect(res.statusCode, res.body).toBe(204);
    const info = await settled(spaceId);
    expect(info.job).toMatchObject({ direction: 'export', state: 'done' });
    const repo = await readRepo(target, 'docs');
    expect(repo.head).toBe(info.job.commit);
    expect(repo.files).toMatchObject({ 'README.md': '# Start\n\nHello.\n', 'more.md': '# More\n', 'SUMMARY.md': expect.stringContaining('* [More](more.md)') });
  });
});
