import type { GitJob } from '@quire/proto/gitsync';
import type { ApplyChangesRequest, ApplyChangesResponse, CreateRevisionRequest, Page, PageContent, Revision } from '@quire/proto/space-content';
import { beforeAll, describe, expect, it } from 'vitest';
import { MANUAL_REPO } from './fixtures.ts';
import { changedPaths, diffStat, readRepo } from './git-server.ts';
import { byTitle, flat } from './jobs.ts';
import { content, repos, owner, createSpace, revision, importRepo, exportRepo, run, useGitSyncEnv } from './gitsync-env.ts';

useGitSyncEnv();

describe('export', () => {
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
});
