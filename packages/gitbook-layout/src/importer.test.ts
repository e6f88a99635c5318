import { describe, expect, it } from 'vitest';
import { planImport, RepositoryError, type PlannedPage, type RepoSnapshot } from './importer.ts';

function snapshot(files: Record<string, string>): RepoSnapshot {
  const blobs = new Map<string, string>();
  const texts = new Map<string, string>();
  for (const [path, text] of Object.entries(files)) {
    blobs.set(path, `oid-${path}`);
    if (/\.(md|ya?ml)$/.test(path)) texts.set(path, text);
  }
  return { blobs, texts };
}

const counter = () => {
  let n = 0;
  return () => `id${++n}`;
};
const none = { pages: new Map<string, string>(), files: new Map<string, string>() };

const outline = (pages: PlannedPage[]): unknown[] => pages.map((p) => ({ t: p.title, s: p.slug, ...(p.pages.length ? { c: outline(p.pages) } : {}) }));

const docs = {
  'docs/.gitbook.yaml': 'root: ./content\nstructure:\n  readme: intro.md\n  summary: TOC.md\n',
  'docs/content/intro.md': '---\ndescription: Start here\n---\n# Welcome\n\nSee [install](guide/install.md#steps) and ![logo](.gitbook/assets/logo.png).\n',
  'docs/content/TOC.md':
    '# Table of contents\n\n* [Welcome](intro.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n  * [Upgrade](guide/upgrade.md)\n* [Website](https://example.com)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'docs/content/guide/README.md': '# Guide\n\nThe guide. Back to [start](../intro.md).\n',
  'docs/content/guide/install.md': '# Installing\n\n<img src="../.gitbook/assets/logo.png" alt="x">\n\n[Source](../../../src/main.c)\n',
  'docs/content/guide/upgrade.md': 'No heading here.\n',
  'docs/content/reference/api.md': '# API\n\n![diagram](diagram.svg)\n',
  'docs/content/reference/diagram.svg': '<svg/>',
  'docs/content/.gitbook/assets/logo.png': 'png',
  'docs/content/.gitbook/assets/unused.pdf': 'pdf',
  'src/main.c': 'int main;',
};

describe('planImport reads includes as reusable contents', () => {
  const repo = {
    '.gitbook.yaml': 'root: ./docs/\n',
    'docs/README.md':
      '# Home\n\n{% include ".gitbook/includes/steps.md" %}\n\n{% include "../secrets.md" %}\n\n{% include "../../etc/passwd.md" %}\n\n{% include "/docs/x.md" %}\n\n{% include ".gitbook/includes/missing.md" %}\n',
    'docs/guide/install.md': '# Install\n\nAgain: {% include "../.gitbook/includes/steps.md" %}\n',
    'docs/.gitbook/includes/steps.md': '---\ntitle: Setup steps\n---\n\n1. See [install](../../guide/install.md).\n\n{% include "footer.md" %}\n',
    'docs/.gitbook/includes/footer.md': 'Footer.\n\n{% include "steps.md" %}\n',
    'secrets.md': '# Above the docs root\n',
  };

  it('each file once, nested ones and cycles too, links and includes rewritten to ids; targets outside the docs root never read', () => {
    const plan = planImport(snapshot(repo), { projectDirectory: '', known: none, newId: counter() });
    const all = (list: PlannedPage[]): PlannedPage[] => list.flatMap((p) => [p, ...all(p.pages)]);
    const install = all(plan.pages).find((p) => p.title === 'Install')!;
    const [steps, footer] = plan.reusableContents;
    expect(plan.reusableContents).toEqual([
      {
        id: steps!.id,
        title: 'Setup steps',
        markdown: `1. See [install](/pages/${install.id}).\n\n{% include "${footer!.id}" %}\n`,
        git: { oid: 'oid-docs/.gitbook/includes/steps.md', path: 'docs/.gitbook/includes/steps.md' },
      },
      {
        id: footer!.id,
        title: 'Footer',
        markdown: `Footer.\n\n{% include "${steps!.id}" %}\n`,
        git: { oid: 'oid-docs/.gitbook/includes/footer.md', path: 'docs/.gitbook/includes/footer.md' },
      },
    ]);
    // Pages point at the reusable content; what was not read stays as written.
    const home = plan.pages.find((p) => p.title === 'Home')!;
    expect(home.markdown).toBe(
      `{% include "${steps!.id}" %}\n\n{% include "../secrets.md" %}\n\n{% include "../../etc/passwd.md" %}\n\n{% include "/docs/x.md" %}\n\n{% include ".gitbook/includes/missing.md" %}\n`,
    );
    expect(install.markdown).toBe(`Again: {% include "${steps!.id}" %}\n`);
    expect(plan.ignoredIncludes).toEqual([
      { from: 'docs/README.md', include: '../secrets.md', reason: 'outside the docs root (docs)' },
      { from: 'docs/README.md', include: '../../etc/passwd.md', reason: 'outside the docs root (docs)' },
      { from: 'docs/README.md', include: '/docs/x.md', reason: 'not a relative path' },
      { from: 'docs/README.md', include: '.gitbook/includes/missing.md', reason: 'no such markdown file' },
    ]);
    // The includes folder holds no pages.
    expect(all(plan.pages).map((p) => p.git?.path)).toEqual(['docs/README.md', undefined, 'docs/guide/install.md']);
    // A reimport keeps the ids by path.
    const again = planImport(snapshot(repo), {
      projectDirectory: '',
      known: { ...none, reusableContents: new Map([['docs/.gitbook/includes/footer.md', 'kept']]) },
      newId: counter(),
    });
    expect(again.reusableContents[1]!.id).toBe('kept');
  });
});

describe('planImport', () => {
  it("resolves .gitbook.yaml's redirects to pages: `/old` as `old`, folders to their README, anchors kept, the rest left out", () => {
    const plan = planImport(
      snapshot({
        ...docs,
        'docs/.gitbook.yaml': `${docs['docs/.gitbook.yaml']}redirects:\n  /setup/: guide/install.md#steps\n  guide-old: guide/\n  ../above: intro.md\n  src: ../../src/main.c\n  missing: nowhere.md\n`,
      }),
      { projectDirectory: 'docs', known: none, newId: counter() },
    );
    const all = (list: PlannedPage[]): PlannedPage[] => list.flatMap((p) => [p, ...all(p.pages)]);
    const id = (title: string) => all(plan.pages).find((p) => p.title === title)!.id;
    expect(plan.redirects).toEqual([
      { from: 'setup', page: id('Install'), anchor: 'steps' },
      { from: 'guide-old', page: id('Guide'), anchor: '' },
    ]);
  });

  it('takes a readme above the project directory, as GitBook does', () => {
    const plan = planImport(snapshot({ 'README.md': '# Project\n\nHello.\n', 'docs/.gitbook.yaml': 'structure:\n  readme: ../README.md\n', 'docs/guide.md': '# Guide\n' }), {
      projectDirectory: 'docs',
      known: none,
      newId: counter(),
    });
    expect(outline(plan.pages)).toEqual([
      { t: 'Project', s: 'project' },
      { t: 'Guide', s: 'guide' },
    ]);
    expect(plan.pages[0]!.git?.path).toBe('README.md');
  });

  it('keeps a heading other than the summary title, every front matter key, and a group title without its HTML anchor, whose id is the group slug', () => {
    const plan = planImport(
      snapshot({
        'SUMMARY.md': '# Table of contents\n\n* [Overview](README.md)\n\n## Get Started <a href="#start" id="start"></a>\n\n* [Install](install.md)\n',
        'README.md': '# Welcome to the project\n\nHi.\n',
        'install.md': '---\ndescription: >-\n  Folded\n  text\nlayout:\n  cover:\n    visible: true\ncoverY: 0\n---\n\n# Install\n\nSteps.\n',
      }),
      { projectDirectory: '', known: none, newId: counter() },
    );
    const [readme, group] = plan.pages as [PlannedPage, PlannedPage];
    expect(readme).toMatchObject({ title: 'Overview', markdown: '# Welcome to the project\n\nHi.\n' });
    expect(group).toMatchObject({ type: 'group', title: 'Get Started', slug: 'start' });
    const install = group.pages[0]!;
    expect(install.front).toEqual({ description: 'Folded text' });
    expect(install.markdown).toBe('---\ndescription: >-\n  Folded\n  text\nlayout:\n  cover:\n    visible: true\ncoverY: 0\n---\nSteps.\n');
  });

  it('reads the summary, the config, front matter, titles and links', () => {
    const plan = planImport(snapshot(docs), { projectDirectory: 'docs', repoTreeUrl: 'https://git.example.com/tree/main/', known: none, newId: counter() });
    expect(outline(plan.pages)).toEqual([
      { t: 'Welcome', s: 'welcome' },
      {
        t: 'Guide',
        s: 'guide',
        c: [
          { t: 'Install', s: 'install' },
          { t: 'Upgrade', s: 'upgrade' },
        ],
      },
      { t: 'Website', s: 'website' },
      { t: 'Reference', s: 'reference', c: [{ t: 'API', s: 'api' }] },
    ]);
    const [intro, guide, link, group] = plan.pages as [PlannedPage, PlannedPage, PlannedPage, PlannedPage];
    const [install, upgrade] = guide.pages as [PlannedPage, PlannedPage];
    expect(link).toMatchObject({ type: 'link', href: 'https://example.com' });
    expect(group.type).toBe('group');
    expect(intro.front).toEqual({ description: 'Start here' });
    expect(intro.git).toEqual({ oid: 'oid-docs/content/intro.md', path: 'docs/content/intro.md' });
    const logo = plan.files.find((f) => f.name === 'logo.png')!;
    const diagram = plan.files.find((f) => f.name === 'diagram.svg')!;
    expect(intro.markdown).toBe(`See [install](/pages/${install.id}#steps) and ![logo](/files/${logo.id}).\n`);
    expect(guide.markdown).toBe(`The guide. Back to [start](/pages/${intro.id}).\n`);
    // Its heading is not the summary's title: it stays the page's first block.
    expect(install.markdown).toBe(`# Installing\n\n<img src="/files/${logo.id}" alt="x">\n\n[Source](https://git.example.com/tree/main/src/main.c)\n`);
    expect(upgrade.markdown).toBe('No heading here.\n');
    expect(group.pages[0]!.markdown).toBe(`![diagram](/files/${diagram.id})\n`);
    expect(plan.files.map((f) => [f.name, f.contentType]).sort()).toEqual([
      ['diagram.svg', 'image/svg+xml'],
      ['logo.png', 'image/png'],
      ['unused.pdf', 'application/pdf'],
    ]);
  });

  it('builds the tree from the folders without a summary', () => {
    const plan = planImport(
      snapshot({
        'README.md': '# Home\n',
        'b.md': '# Bee\n',
        'a.md': 'no title',
        'sub/README.md': '# Sub section\n',
        'sub/deep/x.md': '# X\n',
        LICENSE: 'MIT',
      }),
      { projectDirectory: '', known: none, newId: counter() },
    );
    expect(outline(plan.pages)).toEqual([
      { t: 'Home', s: 'home' },
      { t: 'A', s: 'a' },
      { t: 'Bee', s: 'b' },
      { t: 'Sub section', s: 'sub', c: [{ t: 'Deep', s: 'deep', c: [{ t: 'X', s: 'x' }] }] },
    ]);
    expect(plan.files).toEqual([]);
  });

  it('keeps the ids of known paths', () => {
    const known = { pages: new Map([['docs/content/guide/install.md', 'keepme']]), files: new Map([['docs/content/.gitbook/assets/logo.png', 'logo1']]) };
    const plan = planImport(snapshot(docs), { projectDirectory: 'docs', known, newId: counter() });
    expect(plan.pages[1]!.pages[0]!.id).toBe('keepme');
    expect(plan.pages[0]!.markdown).toContain('(/pages/keepme#steps)');
    expect(plan.pages[0]!.markdown).toContain('(/files/logo1)');
  });

  it('fails clearly on an empty repository or a bad config', () => {
    expect(() => planImport(snapshot({ 'x.txt': 'x' }), { projectDirectory: '', known: none, newId: counter() })).toThrow(RepositoryError);
    expect(() => planImport(snapshot({ '.gitbook.yaml': 'root: [1', 'README.md': '# A' }), { projectDirectory: '', known: none, newId: counter() })).toThrow(
      /\.gitbook\.yaml is not valid YAML/,
    );
    expect(() => planImport(snapshot({ '.gitbook.yaml': 'root: ../..', 'README.md': '# A' }), { projectDirectory: '', known: none, newId: counter() })).toThrow(
      /root must stay inside/,
    );
    expect(() =>
      planImport(snapshot({ 'd/.gitbook.yaml': 'structure:\n  readme: ../../x.md', 'd/a.md': '# A' }), { projectDirectory: 'd', known: none, newId: counter() }),
    ).toThrow(/readme must be a file of the repository/);
  });
});
