import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { ImportRepositoryRequest, QueueJobResponse, RepositoryOptions } from '@quire/proto/gitsync';
import type { ApplyChangesRequest, ApplyChangesResponse, ReadBlobRequest, ReadBlobResponse } from '@quire/proto/space-content';
import { createLogger, MAX_BLOB_BYTES, MAX_BLOBS_PER_CALL } from '@quire/service-kit';
import { connectNats } from '@quire/service-kit/nats';
import { rejects } from '@quire/service-kit/testing/expect';
import { describe, expect, it } from 'vitest';
import { DOCS_REPO } from './fixtures.ts';
import { commitTo, readRepo } from './git-server.ts';
import { startGitSync } from './harness.ts';
import { byTitle } from './jobs.ts';
import {
  content,
  jobs,
  gs,
  repos,
  secured,
  owner,
  reader,
  outsider,
  CREDS,
  createSpace,
  revision,
  importRepo,
  exportRepo,
  info,
  run,
  outline,
  revisionsOf,
  useGitSyncEnv,
} from './gitsync-env.ts';

useGitSyncEnv();

describe('queueing', () => {
  it('checks the request and the caller', async () => {
    const spaceId = await createSpace();
    await rejects(importRepo(spaceId, { url: 'ssh://git@example.com/a.git' }), status.INVALID_ARGUMENT, /url: ssh: URLs are not allowed/);
    await rejects(importRepo(spaceId, { url: 'https://example.com/a.git', ref: 'main' }), status.INVALID_ARGUMENT, /ref: must be a full Git ref/);
    await rejects(importRepo(spaceId, { url: 'https://example.com/a.git', repoProjectDirectory: '../x' }), status.INVALID_ARGUMENT, /repoProjectDirectory/);
    await rejects(importRepo(spaceId, { url: 'https://example.com/a.git', repoTreeUrl: 'javascript:x' }), status.INVALID_ARGUMENT, /repoTreeURL/);
    await rejects(importRepo(spaceId, { url: '' }), status.INVALID_ARGUMENT, /url/);
    await rejects(exportRepo(spaceId, { url: 'https://example.com/a.git' }, '  '), status.INVALID_ARGUMENT, /commitMessage/);
    await rejects(importRepo(spaceId, { url: 'https://example.com/a.git' }, { as: reader }), status.PERMISSION_DENIED, /Git sync/);
    await rejects(importRepo(spaceId, { url: 'https://example.com/a.git' }, { as: outsider }), status.NOT_FOUND);
    await rejects(info(spaceId), status.NOT_FOUND, /No Git sync/);
    await rejects(info(spaceId, outsider), status.NOT_FOUND);
  });

  it('keeps credentials off the stored job, the message and the info', async () => {
    const api = await startGitSync(content.address, { workers: 0, databaseUrl: gs.databaseUrl });
    try {
      const spaceId = await createSpace();
      const { jobId } = await api.call<ImportRepositoryRequest, QueueJobResponse>(
        api.client.importRepository,
        { spaceId, repository: jobs.options({ url: secured.url('private', CREDS), gitInfo: { provider: 'github', url: '' } }), standalone: false },
        owner.id,
      );
      const job = await gs.store.getJob(jobId);
      expect(JSON.stringify(job)).not.toContain(CREDS.password);
      expect(job).toMatchObject({ state: 'queued', url: secured.url('private') });
      const nc = await connectNats('nats://127.0.0.1:4222', 't', createLogger('t', 'silent'));
      const stored = await (await nc.jetstreamManager()).streams.getMessage('JOBS', { last_by_subj: api.queue.subject });
      await nc.close();
      const text = new TextDecoder().decode(stored.data);
      expect(JSON.parse(text)).toMatchObject({ jobId, credentials: expect.any(String) });
      expect(text).not.toContain(CREDS.password);
      expect(text).not.toContain(CREDS.username);
      expect(stored.header?.get('Nats-Msg-Id')).toBe(jobId);
      const i = await info(spaceId);
      expect(i).toMatchObject({
        repoName: 'private',
        installationProvider: 'github',
        integration: 'git-sync',
        url: secured.url('private'),
        latestJob: { id: jobId, state: 'queued' },
      });
      expect(JSON.stringify(i)).not.toContain(CREDS.password);
    } finally {
      await api.stop();
    }
  });
});

describe('import', () => {
  it('reads a docs repository over HTTP: tree, titles, links, assets, git info', async () => {
    const bare = await repos.create('docs', DOCS_REPO);
    const { head } = await readRepo(bare);
    const spaceId = await createSpace();
    const before = (await revision(spaceId)).id;
    const job = await run(
      spaceId,
      importRepo(spaceId, { url: repos.url('docs'), repoTreeUrl: 'https://git.example.com/acme/docs/tree/main', repoCommitUrl: 'https://git.example.com/acme/docs/commit/' }),
    );
    expect(job).toMatchObject({ state: 'done', error: '', commitOid: head, direction: 'import' });
    const r = await revision(spaceId);
    expect(r.id).toBe(job.revisionId);
    expect(r.parents).toEqual([before]);
    expect(r.git).toMatchObject({
      oid: head,
      message: 'Initial content',
      ref: 'refs/heads/main',
      url: `https://git.example.com/acme/docs/commit/${head}`,
      createdByService: false,
    });
    expect(outline(r.pages)).toEqual([
      { title: 'Introduction', type: 'document', slug: 'introduction' },
      {
        title: 'Getting started',
        type: 'document',
        slug: 'getting-started',
        pages: [
          { title: 'Install', type: 'document', slug: 'install' },
          { title: 'Configure', type: 'document', slug: 'configure', pages: [{ title: 'Advanced', type: 'document', slug: 'advanced' }] },
        ],
      },
      { title: 'Changelog', type: 'link', slug: 'changelog' },
      { title: 'Reference', type: 'group', slug: 'reference', pages: [{ title: 'API', type: 'document', slug: 'api' }] },
    ]);
    const intro = byTitle(r, 'Introduction');
    const install = byTitle(r, 'Install');
    const advanced = byTitle(r, 'Advanced');
    const logo = r.files.find((f) => f.name === 'logo.png')!;
    const shot = r.files.find((f) => f.name === 'screen shot.png')!;
    expect(r.files.map((f) => f.name).sort()).toEqual(['diagram.svg', 'logo.png', 'screen shot.png']);
    expect(intro.description).toBe('What this is');
    expect(intro.git).toMatchObject({ path: 'docs/README.md', oid: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(intro.markdown).toContain(`[the install guide](/pages/${install.id}#requirements)`);
    expect(intro.markdown).toContain(`![Logo](/files/${logo.id})`);
    expect(install.markdown).toContain(`<img src="/files/${shot.id}"`);
    expect(advanced.markdown).toContain('[source](https://git.example.com/acme/docs/tree/main/src/index.ts)');
    expect(byTitle(r, 'Changelog').href).toBe('https://example.com/changelog');
    expect(logo.git?.path).toBe('docs/.gitbook/assets/logo.png');
    const bytes = await content.callContent<ReadBlobRequest, ReadBlobResponse>(content.spaceContent.readBlob, { blob: logo.blob }, owner.id);
    expect(Buffer.from(bytes.data)).toEqual(DOCS_REPO['docs/.gitbook/assets/logo.png']);
    expect(await info(spaceId)).toMatchObject({ repoName: 'docs', installationProvider: '', url: 'https://git.example.com/acme/docs/tree/main' });
  });

  it('stores many assets in a few calls, each file under its own bytes: more files than one call takes, and files larger than a call', async () => {
    const assets: Record<string, Buffer> = {};
    for (let i = 0; i < MAX_BLOBS_PER_CALL + 44; i++) assets[`.gitbook/assets/icon-${i}.svg`] = Buffer.from(`<svg id="${i}"/>`);
    for (let i = 0; i < 3; i++) assets[`.gitbook/assets/video-${i}.bin`] = Buffer.alloc(3 * 1024 * 1024, i + 1);
    await repos.create('many-assets', { 'README.md': '# Icons\n', ...assets });
    const spaceId = await createSpace();
    const job = await run(spaceId, importRepo(spaceId, { url: repos.url('many-assets') }));
    expect(job).toMatchObject({ state: 'done', filesDone: job.filesTotal });
    const { files } = await revision(spaceId, '', false);
    expect(files).toHaveLength(Object.keys(assets).length);
    for (const f of files) expect(f.blob, f.git?.path).toBe(createHash('sha256').update(assets[f.git!.path]!).digest('hex'));
    const video = files.find((f) => f.name === 'video-2.bin')!;
    const bytes = await content.callContent<ReadBlobRequest, ReadBlobResponse>(content.spaceContent.readBlob, { blob: video.blob }, owner.id);
    expect(Buffer.from(bytes.data).equals(assets['.gitbook/assets/video-2.bin']!)).toBe(true);
  });

  it('takes a project directory over file://, keeps page ids on reimport, and a standalone import leaves the space', async () => {
    const bare = await repos.create('mono', { 'README.md': '# Mono\n', 'site/README.md': '# Home\n\nHello.\n', 'site/guide.md': '# Guide\n\nv1\n' });
    const spaceId = await createSpace();
    await run(spaceId, importRepo(spaceId, { url: repos.fileUrl('mono'), repoProjectDirectory: 'site' }));
    const first = await revision(spaceId);
    expect(outline(first.pages)).toEqual([
      { title: 'Home', type: 'document', slug: 'home' },
      { title: 'Guide', type: 'document', slug: 'guide' },
    ]);

    await commitTo(bare, { 'site/guide.md': '# Guide\n\nv2\n', 'site/new.md': '# New\n' }, 'Edit guide');
    await run(spaceId, importRepo(spaceId, { url: repos.fileUrl('mono'), repoProjectDirectory: 'site' }));
    const second = await revision(spaceId);
    expect(byTitle(second, 'Guide').id).toBe(byTitle(first, 'Guide').id);
    expect(byTitle(second, 'Home').id).toBe(byTitle(first, 'Home').id);
    expect(byTitle(second, 'Guide').markdown).toBe('v2\n');
    expect(byTitle(second, 'New')).toBeDefined();

    await commitTo(bare, { 'site/guide.md': '# Guide\n\nv3\n' }, 'Draft');
    const standalone = await run(spaceId, importRepo(spaceId, { url: repos.fileUrl('mono'), repoProjectDirectory: 'site' }, { standalone: true }));
    expect(standalone.state).toBe('done');
    expect((await revision(spaceId)).id).toBe(second.id);
    const draft = await revision(spaceId, standalone.revisionId);
    expect(byTitle(draft, 'Guide').markdown).toBe('v3\n');
  });

  it('answers a reimport with nothing new without a revision; an edit in the space, a new commit, other options or force import again', async () => {
    const bare = await repos.create('steady', { 'README.md': '# Steady\n\nOne.\n', 'guide.md': '# Guide\n\nv1\n' });
    const spaceId = await createSpace();
    const url = repos.url('steady');
    const first = await run(spaceId, importRepo(spaceId, { url }));
    const head = (await readRepo(bare)).head;
    expect(first).toMatchObject({ state: 'done', commitOid: head });

    const same = await run(spaceId, importRepo(spaceId, { url }));
    expect(same).toMatchObject({ state: 'done', commitOid: head, revisionId: first.revisionId });
    expect(await revisionsOf(spaceId)).toBe(2);

    // Other options make another space: the skip is for the same source only.
    const other = await run(spaceId, importRepo(spaceId, { url, repoTreeUrl: 'https://git.example.com/steady/tree/main' }));
    expect(other.revisionId).not.toBe(first.revisionId);
    expect(await revisionsOf(spaceId)).toBe(3);

    // An edit in the space since: the import writes the repository's content back over it.
    const r = await revision(spaceId);
    const edited = await content.callContent<ApplyChangesRequest, ApplyChangesResponse>(
      content.spaceContent.applyChanges,
      { spaceId, revisionId: r.id, changes: [{ updatePage: { page: byTitle(r, 'Guide').id, fields: {}, markdown: 'Edited.\n', move: false, keepParent: false } }] },
      owner.id,
    );
    await content.callContent(content.spaceContent.setSpaceRevision, { spaceId, revisionId: edited.revision!.id, expectedRevisionId: r.id }, owner.id);
    const afterEdit = await run(spaceId, importRepo(spaceId, { url, repoTreeUrl: 'https://git.example.com/steady/tree/main' }));
    expect(afterEdit.revisionId).not.toBe(edited.revision!.id);
    expect(byTitle(await revision(spaceId), 'Guide').markdown).toBe('v1\n');

    await commitTo(bare, { 'guide.md': '# Guide\n\nv2\n' }, 'Edit guide');
    const pushed = await run(spaceId, importRepo(spaceId, { url, repoTreeUrl: 'https://git.example.com/steady/tree/main' }));
    expect(pushed).toMatchObject({ state: 'done', commitOid: (await readRepo(bare)).head });
    expect(byTitle(await revision(spaceId), 'Guide').markdown).toBe('v2\n');

    const revisions = await revisionsOf(spaceId);
    const forced = await run(spaceId, importRepo(spaceId, { url, repoTreeUrl: 'https://git.example.com/steady/tree/main', force: true }));
    expect(forced.revisionId).not.toBe(pushed.revisionId);
    expect(await revisionsOf(spaceId)).toBe(revisions + 1);
  });

  it('fails clearly on a bad ref, a missing repository, wrong credentials, a file over the bound; nothing changes', async () => {
    await secured.create('private', DOCS_REPO);
    await repos.create('plain', { 'README.md': '# Plain\n' });
    // A file larger than a space may hold: never read whole, named in the reason (once, as an
    // asset, and once as a page's text).
    const huge = Buffer.alloc(MAX_BLOB_BYTES + 1, 1);
    await repos.create('huge-asset', { 'README.md': '# Huge\n', '.gitbook/assets/movie.bin': huge });
    await repos.create('huge-page', { 'README.md': huge });
    const spaceId = await createSpace();
    const before = await revision(spaceId);
    const cases: [Partial<RepositoryOptions> & { url: string }, RegExp][] = [
      [{ url: repos.url('plain'), ref: 'refs/heads/nope' }, /ref refs\/heads\/nope not found/],
      [{ url: repos.url('missing') }, /not found|repository/i],
      [{ url: secured.url('private', { username: 'alice', password: 'wrong' }) }, /Authentication failed|401|could not read/i],
      [{ url: secured.url('private') }, /Authentication failed|401|could not read|terminal prompts disabled/i],
      [{ url: repos.url('plain'), repoProjectDirectory: 'nothing-here' }, /repoProjectDirectory: "nothing-here" is not a folder/],
      [{ url: repos.url('huge-asset') }, /^\.gitbook\/assets\/movie\.bin is 15\.0 MiB, over the 15 MiB a file may have$/],
      [{ url: repos.url('huge-page') }, /^README\.md is 15\.0 MiB, over the 15 MiB a file may have$/],
    ];
    for (const [o, reason] of cases) {
      const job = await run(spaceId, importRepo(spaceId, o));
      expect(job.state, JSON.stringify(o)).toBe('failed');
      expect(job.error).toMatch(reason);
      expect(job.error).not.toContain('wrong');
    }
    expect((await revision(spaceId)).id).toBe(before.id);
    expect(await revisionsOf(spaceId)).toBe(1);

    const ok = await run(spaceId, importRepo(spaceId, { url: secured.url('private', CREDS) }));
    expect(ok.state).toBe('done');
    expect((await info(spaceId)).url).toBe(secured.url('private'));
  });

  it('orders operations by timestamp: an older one is refused unless forced', async () => {
    await repos.create('ordered', { 'README.md': '# One\n' });
    const spaceId = await createSpace();
    const url = repos.url('ordered');
    expect((await run(spaceId, importRepo(spaceId, { url, timestamp: new Date('2026-01-02T00:00:00Z') }))).state).toBe('done');
    const older = await run(spaceId, importRepo(spaceId, { url, timestamp: new Date('2026-01-01T00:00:00Z') }));
    expect(older).toMatchObject({ state: 'failed', error: expect.stringMatching(/newer operation \(2026-01-02T00:00:00.000Z\)/) });
    expect((await run(spaceId, exportRepo(spaceId, { url, timestamp: new Date('2026-01-01T12:00:00Z') }))).state).toBe('failed');
    expect((await run(spaceId, importRepo(spaceId, { url, timestamp: new Date('2026-01-01T00:00:00Z'), force: true }))).state).toBe('done');
    expect(await revisionsOf(spaceId)).toBe(3);
  });
});
