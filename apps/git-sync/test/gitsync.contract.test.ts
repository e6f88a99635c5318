import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import pg from 'pg';
import type { BatchGetGitInfoRequest, BatchGetGitInfoResponse, GitJob, ImportRepositoryRequest, QueueJobResponse, RepositoryOptions } from '@quire/proto/gitsync';
import type { ApplyChangesRequest, ApplyChangesResponse, CreateRevisionRequest, Page, PageContent, ReadBlobRequest, ReadBlobResponse, Revision } from '@quire/proto/space-content';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { connectDb, stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { createLogger, MAX_BLOB_BYTES, MAX_BLOBS_PER_CALL } from '@quire/service-kit';
import { Role } from '@quire/proto/common';
import { connectNats } from '@quire/service-kit/nats';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_REPO, MANUAL_REPO } from './fixtures.ts';
import { changedPaths, commitTo, diffStat, readRepo, startGitServer } from './git-server.ts';
import { startGitSync, type GitSyncHarness } from './harness.ts';
import { byTitle, flat, gitSyncJobs } from './jobs.ts';

let orgs: OrgsHarness;
let content: ContentHarness;
let gs: GitSyncHarness;
let repos: Awaited<ReturnType<typeof startGitServer>>;
let secured: Awaited<ReturnType<typeof startGitServer>>;
let owner: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string;
let contentDb: pg.Client;

const CREDS = { username: 'alice', password: 'p@ss:word' };

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  [gs, repos, secured] = await Promise.all([startGitSync(content.address), startGitServer(), startGitServer(CREDS)]);
  ({ owner, reader, outsider, orgId } = await team(orgs, { reader: Role.ROLE_READ }));
  jobs = gitSyncJobs(gs, content, owner, orgId);
  contentDb = await connectDb(content.databaseUrl);
});
afterAll(() => stopAll(contentDb, gs, repos, secured, content, orgs));

let jobs: ReturnType<typeof gitSyncJobs>;
const createSpace = () => jobs.createSpace();
const revision = (...a: Parameters<typeof jobs.revision>) => jobs.revision(...a);
const importRepo = (...a: Parameters<typeof jobs.importRepo>) => jobs.importRepo(...a);
const exportRepo = (...a: Parameters<typeof jobs.exportRepo>) => jobs.exportRepo(...a);
const info = (...a: Parameters<typeof jobs.info>) => jobs.info(...a);
const run = (...a: Parameters<typeof jobs.run>) => jobs.run(...a);

type Outline = { title: string; type: string; slug: string; pages?: Outline[] };
const outline = (pages: Page[]): Outline[] => pages.map((p) => ({ title: p.title, type: p.type, slug: p.slug, ...(p.pages.length ? { pages: outline(p.pages) } : {}) }));
const revisionsOf = async (spaceId: string) => Number((await contentDb.query('SELECT count(*) FROM "Revision" WHERE "spaceId" = $1', [spaceId])).rows[0].count);

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

describe('export', () => {
  it('writes the space, imports back to the same tree and content, and makes no empty commit', async () => {
    await repos.create('source', DOCS_REPO);
    const spaceId = await createSpace();
    await run(spaceId, importRepo(spaceId, { url: repos.url('source') }));
    const imported = await revision(spaceId);

    const target = await repos.create('target');
    const exported = await run(spaceId, exportRepo(spaceId, { url: repos.url('target') }, 'Export from the space'));
    expect(exported.state).toBe('done');
    const repo = await readRepo(target);
    expect(repo.commits).toBe(1);
    expect(exported.commitOid).toBe(repo.head);
    expect(Object.keys(repo.files).sort()).toEqual(
      [
        '.gitbook.yaml',
        '.gitbook/assets/logo.png',
        '.gitbook/assets/screen shot.png',
        'README.md',
        'SUMMARY.md',
        'getting-started/README.md',
        'getting-started/configure/README.md',
        'getting-started/configure/advanced.md',
        'getting-started/install.md',
        'reference/api.md',
        '.gitbook/assets/diagram.svg',
      ].sort(),
    );
    expect(repo.files['README.md']).toContain('[the install guide](getting-started/install.md#requirements)');
    expect(repo.files['getting-started/install.md']).toContain('<img src="../.gitbook/assets/screen shot.png"');
    expect(repo.files['SUMMARY.md']).toContain('## Reference');

    const again = await run(spaceId, exportRepo(spaceId, { url: repos.url('target') }));
    expect(again).toMatchObject({ state: 'done', commitOid: repo.head });
    expect((await readRepo(target)).commits).toBe(1);

    await run(spaceId, importRepo(spaceId, { url: repos.url('target') }));
    const back = await revision(spaceId);
    expect(outline(back.pages)).toEqual(outline(imported.pages));
    const strip = (r: Revision) => flat(r.pages).map((p) => ({ id: p.id, title: p.title, markdown: p.markdown, description: p.description, href: p.href }));
    expect(strip(back)).toEqual(strip(imported));
    expect(back.files.map((f) => [f.id, f.blob]).sort()).toEqual(imported.files.map((f) => [f.id, f.blob]).sort());

    const other = await createSpace();
    await run(other, importRepo(other, { url: repos.url('target') }));
    expect(outline((await revision(other)).pages)).toEqual(outline(imported.pages));
  });

  // Attack: file names that are paths (stored before content made them one segment) must not
  // reach the pushed tree outside the space's folder.
  it("writes every file inside the space's folder, whatever its stored name", async () => {
    await repos.create('traversal-source', DOCS_REPO);
    const spaceId = await createSpace();
    await run(spaceId, importRepo(spaceId, { url: repos.url('traversal-source') }));
    const names = ['../../.github/workflows/x.yml', '../.git/hooks/post-checkout', '/etc/cron.d/x'];
    // A new revision (content keeps revisions it read in memory: they are immutable) with those
    // names: the current one's pages, and its files renamed in a chunk of their own.
    await contentDb.query(
      `WITH cur AS (SELECT r.* FROM "Revision" r JOIN "Space" s ON r.id = s."revisionId" WHERE s.id = $1),
       files AS (SELECT e.f::jsonb AS f, row_number() OVER (ORDER BY c.k, e.m) AS n FROM cur
         CROSS JOIN LATERAL unnest(cur."fileChunks") WITH ORDINALITY AS c(id, k) JOIN "TreeChunk" t ON t.id = c.id
         CROSS JOIN LATERAL json_array_elements(t.content) WITH ORDINALITY AS e(f, m)),
       chunk AS (INSERT INTO "TreeChunk" (id, content)
         SELECT 'renamed-' || cur.id, (SELECT jsonb_agg(jsonb_set(f, '{name}', to_jsonb(($2::text[])[n::int])) ORDER BY n) FROM files)::json FROM cur RETURNING id),
       made AS (INSERT INTO "Revision" (id, "spaceId", parents, type, "pageChunks", "fileChunks", variables)
         SELECT cur.id || 'x', cur."spaceId", ARRAY[cur.id], cur.type, cur."pageChunks", ARRAY[(SELECT id FROM chunk)], cur.variables FROM cur RETURNING id)
       UPDATE "Space" SET "revisionId" = (SELECT id FROM made) WHERE id = $1`,
      [spaceId, names],
    );
    expect((await revision(spaceId)).files.map((f) => f.name)).toEqual(names);
    const target = await repos.create('traversal-target');
    expect((await run(spaceId, exportRepo(spaceId, { url: repos.url('traversal-target') }))).state).toBe('done');
    const paths = Object.keys((await readRepo(target)).files);
    expect(paths.filter((p) => p.startsWith('.gitbook/assets/')).sort()).toEqual(
      ['.gitbook/assets/-.git-hooks-post-checkout', '.gitbook/assets/-..-.github-workflows-x.yml', '.gitbook/assets/-etc-cron.d-x'].sort(),
    );
    expect(paths.filter((p) => /(^|\/)\.git(hub)?\/|^etc\//.test(p))).toEqual([]);
  });

  it('exports an unchanged import onto its repository without a commit, every file byte for byte', async () => {
    const bare = await repos.create('layout', DOCS_REPO);
    const { head } = await readRepo(bare);
    const spaceId = await createSpace();
    await run(spaceId, importRepo(spaceId, { url: repos.url('layout') }));
    expect(await run(spaceId, exportRepo(spaceId, { url: repos.url('layout') }))).toMatchObject({ state: 'done', commitOid: head });
    expect(await readRepo(bare)).toMatchObject({ commits: 1, head });
  });

  describe('a GitBook manual in Chinese with a project directory', () => {
    const url = () => repos.url('manual');
    const o = () => ({ url: url(), repoProjectDirectory: 'manual' });
    let bare: string;
    let spaceId: string;
    let first: string;
    let imported: Revision;
    let importJob: GitJob;
    beforeAll(async () => {
      bare = await repos.create('manual', MANUAL_REPO);
      first = (await readRepo(bare)).head;
      spaceId = await createSpace();
      importJob = await run(spaceId, importRepo(spaceId, o()));
      imported = await revision(spaceId);
    });

    it('imports its structure, content and links', async () => {
      const titles = flat(imported.pages).map((p) => p.title);
      expect(titles.slice(0, 7)).toEqual(['项目简介', '安装指南', '安装步骤', '计时', '准备工作', 'API v2.1', '区块']);
      const guide = byTitle(imported, '安装指南');
      const steps = byTitle(imported, '安装步骤');
      const timing = byTitle(imported, '计时');
      expect(byTitle(imported, '项目简介').git?.path).toBe('README.md');
      expect(byTitle(imported, '准备工作')).toMatchObject({ type: 'link', href: `/pages/${steps.id}#zhun-bei` });
      expect(byTitle(imported, '区块').type).toBe('group');
      expect(steps).toMatchObject({ slug: 'install_steps', markdown: expect.stringMatching(/^# 安装所有组件\n/) });
      expect(byTitle(imported, 'API v2.1').slug).toBe('api_v2.1');
      expect(guide.description).toBe('如何安装 这个项目');
      expect(guide.markdown).toMatch(/^---\ndescription: >-\n {2}如何安装\n {2}这个项目\nlayout:/);
      expect(guide.markdown).toContain(`[安装步骤](/pages/${steps.id}#zhun-bei)`);
      expect(guide.markdown).toContain(`[计时](/pages/${timing.id})`);
      const arch = imported.files.find((f) => f.name === 'arch.png')!;
      expect(guide.markdown).toContain(`![架构图](/files/${arch.id})`);
      const api = byTitle(imported, 'API v2.1').markdown!;
      const spec = imported.files.find((f) => f.name === 'spec.pdf')!;
      expect(api).toContain(`{% content-ref url="/pages/${steps.id}" %}`);
      expect(api).toContain(`{% file src="/files/${spec.id}" %}`);
      expect(imported.files.map((f) => f.git?.path).sort()).toEqual([
        'manual/docs/.gitbook/assets/spec.pdf',
        'manual/docs/.gitbook/assets/截图 1.png',
        'manual/docs/images/arch.png',
      ]);
    });

    it("keeps .gitbook.yaml's redirects with the revision: to pages, with anchors; one to an unlisted file leads nowhere", () => {
      const steps = byTitle(imported, '安装步骤');
      expect(imported.redirects).toEqual([
        { path: 'old/install', pageId: steps.id, anchor: '' },
        { path: 'faq', pageId: byTitle(imported, 'API v2.1').id, anchor: '' },
        { path: 'setup/prepare', pageId: steps.id, anchor: 'zhun-bei' },
      ]);
    });

    it('reads the included files under the docs root as reusable contents, nested ones too; includes above it are left as written, never read', () => {
      const [setup, note] = imported.reusableContents;
      expect(imported.reusableContents.map((r) => [r.title, r.git?.path])).toEqual([
        ['Setup steps', 'manual/docs/.gitbook/includes/setup-steps.md'],
        ['注意', 'manual/docs/.gitbook/includes/note.md'],
      ]);
      expect(setup!.markdown).toBe(`1. 下载\n2. 安装\n\n{% include "${note!.id}" %}\n`);
      expect(note!.markdown).toBe(`先[备份](/pages/${byTitle(imported, '安装步骤').id})。\n`);
      expect(byTitle(imported, 'include').markdown).toBe(
        `Shared steps follow.\n\n{% include "${setup!.id}" %}\n\nAnd the footer every page shares:\n\n{% include ".gitbook/includes/footer.md" %}\n`,
      );
      expect(byTitle(imported, '计时').markdown).toContain('{% include "../../../README.md" %}\n\n{% include "../../../../etc/passwd.md" %}');
    });

    it('records progress: files processed of total', () => {
      const pages = flat(imported.pages).filter((p) => p.git).length;
      expect(importJob).toMatchObject({ state: 'done', filesTotal: pages + imported.files.length, filesDone: pages + imported.files.length });
    });

    it('exports it back unchanged: no commit', async () => {
      const job = await run(spaceId, exportRepo(spaceId, o()));
      expect(job).toMatchObject({ state: 'done', commitOid: first, filesDone: job.filesTotal });
      expect(job.filesTotal).toBe(flat(imported.pages).filter((p) => p.type === 'document').length + imported.files.length);
      const after = await readRepo(bare);
      expect(after).toMatchObject({ commits: 1, head: first });
      expect(await diffStat(bare, first, after.head)).toBe('');
    });

    it('exports an edit of a reusable content as a commit touching its file alone; imported again, ids and pages stay', async () => {
      const r = await revision(spaceId);
      const note = r.reusableContents.find((c) => c.title === '注意')!;
      const content_ = (p: Page): PageContent => ({
        id: p.id,
        type: p.type,
        fields: { title: p.title, slug: p.slug, description: p.description, emoji: p.emoji, icon: p.icon, hidden: p.hidden },
        markdown: p.markdown ?? '',
        href: p.href,
        git: p.git,
        pages: p.pages.map(content_),
      });
      await content.callContent<CreateRevisionRequest, Revision>(
        content.spaceContent.createRevision,
        {
          spaceId,
          parentRevisionId: r.id,
          pages: r.pages.map(content_),
          files: r.files.map((f) => ({ id: f.id, name: f.name, contentType: f.contentType, blob: f.blob, git: f.git })),
          setActive: true,
          type: '',
          reusableContents: { items: r.reusableContents.map((c) => (c.id === note.id ? { ...c, markdown: '先备份，再安装。\n' } : c)) },
        },
        owner.id,
      );
      const job = await run(spaceId, exportRepo(spaceId, o(), 'Edit an include'));
      expect(job.state).toBe('done');
      expect(await changedPaths(bare, job.commitOid)).toEqual(['manual/docs/.gitbook/includes/note.md']);
      expect((await readRepo(bare)).files['manual/docs/.gitbook/includes/note.md']).toBe('---\ntitle: 注意\n---\n\n先备份，再安装。\n');
      await run(spaceId, importRepo(spaceId, o()));
      const back = await revision(spaceId);
      expect(back.reusableContents.map((c) => [c.id, c.title, c.markdown])).toEqual(
        r.reusableContents.map((c) => [c.id, c.title, c.id === note.id ? '先备份，再安装。\n' : c.markdown]),
      );
      expect(flat(back.pages).map((p) => p.documentId)).toEqual(flat(r.pages).map((p) => p.documentId));
    });

    it('exports an edit of one page as a commit touching that page alone', async () => {
      const r = await revision(spaceId);
      const steps = byTitle(r, '安装步骤');
      const edited = await content.callContent<ApplyChangesRequest, ApplyChangesResponse>(
        content.spaceContent.applyChanges,
        { spaceId, revisionId: r.id, changes: [{ updatePage: { page: steps.id, fields: {}, markdown: `${steps.markdown}\n新的一段。\n`, move: false, keepParent: false } }] },
        owner.id,
      );
      await content.callContent(content.spaceContent.setSpaceRevision, { spaceId, revisionId: edited.revision!.id, expectedRevisionId: r.id }, owner.id);
      const job = await run(spaceId, exportRepo(spaceId, o(), 'Edit one page'));
      expect(job.state).toBe('done');
      expect(await changedPaths(bare, job.commitOid)).toEqual(['manual/docs/guide/install_steps.md']);
      const files = (await readRepo(bare)).files;
      expect(files['manual/docs/guide/install_steps.md']).toBe(`${MANUAL_REPO['manual/docs/guide/install_steps.md']}\n新的一段。\n`);
      // Imported again, the space is as it was edited; exported again, nothing changes.
      await run(spaceId, importRepo(spaceId, o()));
      const back = await revision(spaceId);
      expect(flat(back.pages).map((p) => [p.id, p.title, p.markdown])).toEqual(flat((await revision(spaceId, edited.revision!.id)).pages).map((p) => [p.id, p.title, p.markdown]));
      expect((await run(spaceId, exportRepo(spaceId, o()))).commitOid).toBe(job.commitOid);
    });

    it('exported to an empty repository, imports back to the same space', async () => {
      const source = await revision(spaceId);
      const target = await repos.create('manual-copy');
      expect((await run(spaceId, exportRepo(spaceId, { url: repos.url('manual-copy') }))).state).toBe('done');
      const copy = await createSpace();
      await run(copy, importRepo(copy, { url: repos.url('manual-copy') }));
      const back = await revision(copy);
      const ids = new Map([...flat(source.pages).map((p, i) => [p.id, `p${i}`] as const), ...source.files.map((f) => [f.id, f.name] as const)]);
      const backIds = new Map([...flat(back.pages).map((p, i) => [p.id, `p${i}`] as const), ...back.files.map((f) => [f.id, f.name] as const)]);
      const norm = (r: Revision, map: Map<string, string>) => {
        const included = new Map(r.reusableContents.map((c) => [c.id, c.title]));
        const ids = (text: string) =>
          text
            .replace(/\/(pages|files)\/([\w-]+)/g, (_, k: string, id: string) => `/${k}/${map.get(id)}`)
            .replace(/\{% include "([\w-]+)" %\}/g, (all, id: string) => (included.has(id) ? `{% include "${included.get(id)}" %}` : all));
        return [
          ...flat(r.pages).map((p) => ({ type: p.type, title: p.title, description: p.description, href: ids(p.href), markdown: ids(p.markdown ?? '') })),
          ...r.reusableContents.map((c) => ({ title: c.title, markdown: ids(c.markdown) })),
        ];
      };
      expect(norm(back, backIds)).toEqual(norm(source, ids));
      expect(back.reusableContents).toHaveLength(2);
      expect(back.files.map((f) => f.blob).sort()).toEqual(source.files.map((f) => f.blob).sort());
      // The redirects went into the new `.gitbook.yaml` and lead to the same pages.
      expect(back.redirects.map((r) => ({ ...r, pageId: backIds.get(r.pageId) }))).toEqual(source.redirects.map((r) => ({ ...r, pageId: ids.get(r.pageId) })));
      expect(back.redirects).toHaveLength(3);
      // And that repository takes the next export without a commit.
      const { head } = await readRepo(target);
      expect((await run(copy, exportRepo(copy, { url: repos.url('manual-copy') }))).commitOid).toBe(head);
    });
  });

  it('carries an edit in the space to the repository, then an edit in the repository to the space', async () => {
    const bare = await repos.create('roundtrip', { 'README.md': '# Welcome\n\nHello.\n', 'guide.md': '# Guide\n\nOriginal.\n', 'old.md': '# Old\n', LICENSE: 'MIT\n' });
    const spaceId = await createSpace();
    await run(spaceId, importRepo(spaceId, { url: repos.url('roundtrip') }));
    const r1 = await revision(spaceId);
    const guide = byTitle(r1, 'Guide');
    const edited = await content.callContent<ApplyChangesRequest, ApplyChangesResponse>(
      content.spaceContent.applyChanges,
      {
        spaceId,
        revisionId: r1.id,
        changes: [
          { updatePage: { page: guide.id, fields: {}, markdown: 'Edited in the space.\n', move: false, keepParent: false } },
          { deletePage: { page: byTitle(r1, 'Old').id } },
        ],
      },
      owner.id,
    );
    await content.callContent(content.spaceContent.setSpaceRevision, { spaceId, revisionId: edited.revision!.id, expectedRevisionId: r1.id }, owner.id);

    const exported = await run(spaceId, exportRepo(spaceId, { url: repos.url('roundtrip') }, 'Edit from the space'));
    expect(exported.state).toBe('done');
    const repo = await readRepo(bare);
    expect(repo.commits).toBe(2);
    expect(repo.files['guide.md']).toBe('# Guide\n\nEdited in the space.\n');
    // The deleted page's file goes; files that are not docs stay.
    expect(Object.keys(repo.files).sort()).toEqual(['.gitbook.yaml', 'LICENSE', 'README.md', 'SUMMARY.md', 'guide.md']);

    await commitTo(bare, { 'guide.md': '# Guide\n\nEdited in the repository.\n' }, 'Edit in git');
    await run(spaceId, importRepo(spaceId, { url: repos.url('roundtrip') }));
    const r3 = await revision(spaceId);
    expect(byTitle(r3, 'Guide')).toMatchObject({ id: guide.id, markdown: 'Edited in the repository.\n' });
    expect(byTitle(r3, 'Welcome').id).toBe(byTitle(r1, 'Welcome').id);
  });

  it('lists git info in batches', async () => {
    const a = await createSpace();
    const b = await createSpace();
    await repos.create('batch', { 'README.md': '# B\n' });
    await run(a, importRepo(a, { url: repos.url('batch') }));
    const res = await gs.call<BatchGetGitInfoRequest, BatchGetGitInfoResponse>(gs.client.batchGetGitInfo, { spaceIds: [a, b] }, owner.id);
    expect(res.items.map((i) => i.spaceId)).toEqual([a]);
    expect(res.items[0]).toMatchObject({ repoName: 'batch', latestJob: { state: 'done' } });
  });
});
