import type { Revision } from '@quire/proto/space-content';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { startOrgs, team, type OrgsHarness } from '@quire/orgs/testing';
import { stopAll } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHAPES } from './fixtures.ts';
import { readRepo, startGitServer } from './git-server.ts';
import { startGitSync, type GitSyncHarness } from './harness.ts';
import { byTitle, flat, gitSyncJobs } from './jobs.ts';

let orgs: OrgsHarness;
let content: ContentHarness;
let gs: GitSyncHarness;
let repos: Awaited<ReturnType<typeof startGitServer>>;
let jobs: ReturnType<typeof gitSyncJobs>;

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  [gs, repos] = await Promise.all([startGitSync(content.address), startGitServer()]);
  const { owner, orgId } = await team(orgs, {});
  jobs = gitSyncJobs(gs, content, owner, orgId);
});
afterAll(() => stopAll(gs, repos, content, orgs));

/** Each page's path as content serves it. */
const paths = (r: Revision) => Object.fromEntries(flat(r.pages).map((p) => [p.title, p.path]));
const fileId = (r: Revision, name: string) => r.files.find((f) => f.name === name)!.id;

// What each shape's import must read as GitBook publishes it.
const READS: Record<keyof typeof SHAPES, (r: Revision) => void> = {
  groups: (r) =>
    expect(paths(r)).toEqual({
      Home: 'home',
      入门指南: 'ru-men',
      安装: 'ru-men/install',
      'Editing & publishing': 'editing-and-publishing',
      'Building with C++': 'editing-and-publishing/17.1.-building-with-visual-c++',
      Pricing: 'pricing',
    }),
  links: (r) => {
    const [guide, authid] = [byTitle(r, 'Guide').id, byTitle(r, 'pg_authid').id];
    const intro = byTitle(r, 'Intro').markdown!;
    const spec = fileId(r, 'my spec.pdf');
    expect(intro).toContain(`Read [the guide](/pages/${guide}), [its readme](/pages/${guide}) and [pg\\_authid](/pages/${authid}).`);
    expect(intro).toContain(`| \`space\` | \`\`[\`pg_authid\`](/pages/${authid}).oid |`);
    expect(intro).toContain(`The [spec](/files/${spec} "Spec"), [again](</files/${spec}>), [raw](/files/${spec}).`);
    expect(intro).toContain(`{% file src="/files/${fileId(r, 'SKILL (1).md')}" %}`);
    expect(byTitle(r, 'API').markdown).toContain(`{% openapi src="/files/${fileId(r, 'api spec.yaml')}" path="/pets" method="get" %}`);
  },
  covers: (r) => {
    expect(byTitle(r, 'Home').markdown).toBe(`---\ncover: /files/${fileId(r, 'hero (1).png')}\ncoverY: -42\nlayout:\n  width: wide\n  title:\n    visible: false\n---\n`);
    expect(byTitle(r, 'Guide')).toMatchObject({ description: 'The guide', markdown: expect.stringContaining(`cover: /files/${fileId(r, 'guide cover.png')}\n`) });
  },
  redirects: (r) => {
    const [guide, steps] = [byTitle(r, 'Guide').id, byTitle(r, 'Steps').id];
    expect(r.redirects).toEqual([
      { path: 'to-file', pageId: steps, anchor: '' },
      { path: 'without-md', pageId: steps, anchor: '' },
      { path: 'from-root', pageId: steps, anchor: 'part' },
      { path: 'to-folder', pageId: guide, anchor: '' },
      { path: 'moved-once', pageId: steps, anchor: '' },
      { path: 'old/place', pageId: steps, anchor: '' },
    ]);
  },
  outside: (r) => {
    expect(byTitle(r, 'Example').git?.path).toBe('examples/x/README.md');
    expect(byTitle(r, 'Notebook').git?.path).toBe('docs/notebooks/analysis.ipynb');
  },
};

describe.each(Object.keys(SHAPES) as (keyof typeof SHAPES)[])('a repository of the %s shape', (shape) => {
  let spaceId: string;
  let imported: Revision;
  let bare: string;
  let head: string;
  beforeAll(async () => {
    bare = await repos.create(shape, SHAPES[shape]);
    head = (await readRepo(bare)).head;
    spaceId = await jobs.createSpace();
    expect(await jobs.run(spaceId, jobs.importRepo(spaceId, { url: repos.url(shape) }))).toMatchObject({ state: 'done' });
    imported = await jobs.revision(spaceId);
  });

  it('imports as GitBook publishes it', () => READS[shape](imported));

  it('exports onto the same repository without a commit', async () => {
    expect(await jobs.run(spaceId, jobs.exportRepo(spaceId, { url: repos.url(shape) }))).toMatchObject({ state: 'done', commitOid: head });
    expect(await readRepo(bare)).toMatchObject({ commits: 1, head });
  });

  it('exports to a new repository that imports back to the same paths, files and redirects', async () => {
    await repos.create(`${shape}-copy`);
    expect(await jobs.run(spaceId, jobs.exportRepo(spaceId, { url: repos.url(`${shape}-copy`) }))).toMatchObject({ state: 'done' });
    const copy = await jobs.createSpace();
    expect(await jobs.run(copy, jobs.importRepo(copy, { url: repos.url(`${shape}-copy`) }))).toMatchObject({ state: 'done' });
    const back = await jobs.revision(copy);
    // Pages above the docs root or no markdown move into the new repository's root.
    if (shape !== 'outside') expect(paths(back)).toEqual(paths(imported));
    expect(back.files.map((f) => f.blob).sort()).toEqual(imported.files.map((f) => f.blob).sort());
    expect(back.redirects).toHaveLength(imported.redirects.length);
  });
});
