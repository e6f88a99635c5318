import type { BatchGetGitInfoRequest, BatchGetGitInfoResponse } from '@quire/proto/gitsync';
import type { ApplyChangesRequest, ApplyChangesResponse, Revision } from '@quire/proto/space-content';
import { describe, expect, it } from 'vitest';
import { DOCS_REPO } from './fixtures.ts';
import { commitTo, readRepo } from './git-server.ts';
import { byTitle, flat } from './jobs.ts';
import { content, gs, repos, owner, contentDb, createSpace, revision, importRepo, exportRepo, run, outline, useGitSyncEnv } from './gitsync-env.ts';

useGitSyncEnv();

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
