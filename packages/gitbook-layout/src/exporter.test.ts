import { describe, expect, it } from 'vitest';
import { knownIds, planExport } from './exporter.ts';
import { planImport } from './importer.ts';
import { applyExport, counter, find, importSpace, same, snapshot } from './testing.ts';

// A project's docs as GitBook's Git Sync leaves them, and what else a repository holds.
const REPO: Record<string, string> = {
  '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/page: guide/install_steps.md\n',
  'docs/SUMMARY.md':
    '# Table of contents\n\n- [Overview](README.md)\n- [Guide](guide/)\n  - [Install steps](guide/install_steps.md)\n  - [API v2.1](reference/api_v2.1.md)\n  - [Before you start](guide/install_steps.md#before)\n\n## Get Started <a href="#start" id="start"></a>\n\n- [First](first.md)\n',
  'docs/README.md': '---\ndescription: >-\n  A folded\n  description\nlayout:\n  cover:\n    visible: true\n---\n\n# Welcome\n\nRead [the steps](guide/install_steps.md#before).\n',
  'docs/guide/README.md': '# Guide\n\nSee ![shot](../images/shot.png) and [the API](../reference/api_v2.1.md).\n',
  'docs/guide/install_steps.md': '# Installing everything\n\n## Before\n\nText.\n',
  'docs/reference/api_v2.1.md': 'No heading.\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n',
  'docs/first.md': '# First\n\n![logo](.gitbook/assets/logo.png)\n',
  'docs/.gitbook/assets/logo.png': 'png bytes',
  'docs/images/shot.png': 'shot bytes',
  'docs/unlisted.md': '# Not in the summary\n',
  'docs/blog/2024.md': '# A post\n',
  'docs/.gitbook/includes/tags.yaml': 'tags: [a]\n',
  'src/main.c': 'int main;\n',
};

describe('planExport onto the repository the space came from', () => {
  it('changes nothing when nothing changed', () => {
    const space = importSpace(REPO);
    // The file listed twice is one page, and a link to it.
    const steps = find(space, 'Install steps');
    expect(find(space, 'Before you start')).toMatchObject({ type: 'link', href: `/pages/${steps.id}#before` });
    expect(find(space, 'Overview').markdown).toContain(`(/pages/${steps.id}#before)`);
    // `.gitbook.yaml`'s redirects lead to the page of their file.
    expect(planImport(snapshot(REPO), { projectDirectory: '', known: knownIds(space.pages, space.files, ''), newId: counter() }).redirects).toEqual([
      { from: 'old/page', page: steps.id, anchor: '' },
    ]);
    const { plan, files } = applyExport(REPO, space);
    expect(plan.texts).toEqual(new Map());
    expect(plan.remove).toEqual([]);
    expect(files).toEqual(REPO);
  });

  it('keeps SUMMARY entries without a link (a title over its children) as they are', () => {
    const repo = {
      'docs/.gitbook.yaml': 'root: ./\n',
      'docs/SUMMARY.md': '# Guide\n- [Home](README.md)\n- Guidelines\n  - [Pointers](pointers.md)\n  - Errors\n    - [Types](error-type.md)\n',
      'docs/README.md': '# Home\n',
      'docs/pointers.md': '# Pointers\n',
      'docs/error-type.md': '# Types\n',
    };
    const space = importSpace(repo, 'docs');
    expect(find(space, 'Guidelines')).toMatchObject({ type: 'document', pages: [{ title: 'Pointers' }, { title: 'Errors' }] });
    const again = importSpace(repo, 'docs', space);
    expect(find(again, 'Errors').id).toBe(find(space, 'Errors').id);
    const { plan, files } = applyExport(repo, space, 'docs');
    expect(plan.texts).toEqual(new Map());
    expect(files).toEqual(repo);
  });

  it("writes an edited page alone, in the document model's spelling, keeping its front matter and heading", () => {
    const space = importSpace(REPO);
    const readme = find(space, 'Overview');
    readme.markdown = readme.markdown!.replace('Read', 'Now read');
    const { plan, files } = applyExport(REPO, space);
    expect([...plan.texts.keys()]).toEqual(['docs/README.md']);
    expect(plan.remove).toEqual([]);
    expect(files['docs/README.md']).toBe(
      '---\ndescription: >-\n  A folded\n  description\nlayout:\n  cover:\n    visible: true\n---\n\n# Welcome\n\nNow read [the steps](guide/install_steps.md#before).\n',
    );
    // And the edit reads back as it was made.
    const back = importSpace(files, '', space);
    expect(same(back)).toEqual(same(space));
  });

  it('does not give a page a heading its file did not have, and keeps the file of a renamed page', () => {
    const space = importSpace(REPO);
    const api = find(space, 'API v2.1');
    api.title = 'API version 2.1';
    api.markdown = `${api.markdown}\nMore.\n`;
    const { plan, files } = applyExport(REPO, space);
    expect([...plan.texts.keys()].sort()).toEqual(['docs/SUMMARY.md', 'docs/reference/api_v2.1.md']);
    expect(files['docs/reference/api_v2.1.md']).toBe('No heading.\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n\nMore.\n');
    expect(files['docs/SUMMARY.md']).toContain('* [API version 2.1](reference/api_v2.1.md)');
  });

  it("removes only the files of deleted pages and files; new pages get GitBook's paths", () => {
    const space = importSpace(REPO);
    const guide = find(space, 'Guide');
    guide.pages = guide.pages.filter((p) => p.title !== 'Install steps');
    guide.pages.push({
      id: 'new1',
      type: 'document',
      title: 'Установка',
      slug: 'ustanovka',
      emoji: '',
      icon: '',
      description: '',
      hidden: false,
      href: '',
      markdown: 'Новая страница.\n',
      pages: [],
    });
    space.files = [];
    const { plan, files } = applyExport(REPO, space);
    expect(plan.remove.sort()).toEqual(['docs/.gitbook/assets/logo.png', 'docs/guide/install_steps.md', 'docs/images/shot.png']);
    expect(files['docs/guide/ustanovka.md']).toBe('# Установка\n\nНовая страница.\n');
    for (const kept of ['.gitbook.yaml', 'docs/unlisted.md', 'docs/blog/2024.md', 'docs/.gitbook/includes/tags.yaml', 'src/main.c']) expect(files[kept]).toBe(REPO[kept]);
  });
});

describe('planExport to a new repository', () => {
  it('lays the space out as GitBook does, and imports back to the same space', () => {
    const space = importSpace(REPO);
    const { files } = applyExport({}, space);
    expect(Object.keys(files).sort()).toEqual(
      [
        '.gitbook.yaml',
        'SUMMARY.md',
        'README.md',
        'guide/README.md',
        'guide/install_steps.md',
        'guide/api_v2.1.md',
        'start/first.md',
        '.gitbook/assets/logo.png',
        '.gitbook/assets/shot.png',
      ].sort(),
    );
    expect(files['SUMMARY.md']).toContain('  * [Before you start](guide/install_steps.md#before)\n');
    // The group's slug, which its title would not give, as the heading's anchor.
    expect(files['SUMMARY.md']).toContain('\n## Get Started <a href="#start" id="start"></a>\n\n* [First](start/first.md)\n');
    expect(files['guide/README.md']).toBe('# Guide\n\nSee ![shot](../.gitbook/assets/shot.png) and [the API](api_v2.1.md).\n');
    const back = importSpace(files, '', space);
    expect(same(back).map((p) => JSON.stringify(p).replace(/"slug":"[^"]*"/g, ''))).toEqual(same(space).map((p) => JSON.stringify(p).replace(/"slug":"[^"]*"/g, '')));
    // A second export onto it changes nothing.
    expect(applyExport(files, back).plan).toMatchObject({ texts: new Map(), remove: [], pageCount: 5 });
  });

  it("writes the space's redirects into the new .gitbook.yaml, leading to the same pages", () => {
    const space = importSpace(REPO);
    const redirects = planImport(snapshot(REPO), { projectDirectory: '', known: knownIds(space.pages, space.files, ''), newId: counter() }).redirects;
    const withAnchor = [
      ...redirects.map((r) => ({ path: r.from, pageId: r.page, anchor: r.anchor })),
      { path: 'old: first', pageId: find(space, 'First').id, anchor: 'top' },
      { path: 'gone', pageId: 'deleted', anchor: '' },
    ];
    const plan = planExport(space.pages, space.files, { projectDirectory: '', redirects: withAnchor });
    const yaml = plan.texts.get('.gitbook.yaml')!;
    expect(yaml).toContain('redirects:\n  old/page: guide/install_steps.md\n  "old: first": start/first.md#top\n');
    const files = Object.fromEntries([...plan.texts, ...[...plan.files.values()].map((path) => [path, 'bytes'])]);
    const back = planImport(snapshot(files), { projectDirectory: '', known: knownIds(space.pages, space.files, ''), newId: counter() });
    expect(back.redirects).toEqual([
      { from: 'old/page', page: find(space, 'Install steps').id, anchor: '' },
      { from: 'old: first', page: find(space, 'First').id, anchor: 'top' },
    ]);
  });
});

describe('planExport of reusable contents', () => {
  const repo: Record<string, string> = {
    ...REPO,
    'docs/first.md': '# First\n\n![logo](.gitbook/assets/logo.png)\n\n{% include ".gitbook/includes/steps.md" %}\n',
    'docs/guide/install_steps.md': '# Installing everything\n\n## Before\n\n{% include "../.gitbook/includes/steps.md" %}\n\n{% include "../../outside.md" %}\n',
    'docs/.gitbook/includes/steps.md': '---\ntitle: Setup steps\n---\n\n1. Read [first](../../first.md).\n\n{% include "footer.md" %}\n',
    'docs/.gitbook/includes/footer.md': '---\ntitle: Footer\n---\n\nFooter.\n',
    'outside.md': '# Outside\n',
  };

  it('changes nothing when nothing changed; an edited one is its file alone', () => {
    const space = importSpace(repo);
    expect(space.reusableContents.map((r) => r.title)).toEqual(['Setup steps', 'Footer']);
    expect(applyExport(repo, space).plan).toMatchObject({ texts: new Map(), remove: [] });
    const footer = space.reusableContents[1]!;
    const edited = { ...space, reusableContents: [space.reusableContents[0]!, { ...footer, markdown: 'Footer, *edited*.\n' }] };
    const { plan, files } = applyExport(repo, edited);
    expect(plan.texts).toEqual(new Map([['docs/.gitbook/includes/footer.md', '---\ntitle: Footer\n---\n\nFooter, _edited_.\n']]));
    expect(plan.remove).toEqual([]);
    // Which imports as it is now, with the same ids.
    expect(importSpace(files, '', edited).reusableContents).toEqual([
      space.reusableContents[0],
      { ...footer, markdown: 'Footer, _edited_.\n', git: { ...footer.git, oid: expect.any(String) } },
    ]);
  });

  it('writes them to .gitbook/includes in a new repository, pages including them by path, and reimports them with their ids', () => {
    const space = importSpace(repo);
    const { plan, files } = applyExport({}, space);
    expect(plan.texts.get('.gitbook/includes/setup-steps.md')).toBe('---\ntitle: Setup steps\n---\n\n1. Read [first](../../start/first.md).\n\n{% include "footer.md" %}\n');
    expect(plan.texts.get('start/first.md')).toContain('{% include "../.gitbook/includes/setup-steps.md" %}');
    // An include the import left as written stays so.
    expect(plan.texts.get('guide/install_steps.md')).toContain('{% include "../.gitbook/includes/setup-steps.md" %}\n\n{% include "../../outside.md" %}');
    const back = importSpace(files, '', space);
    expect(back.reusableContents.map((r) => [r.id, r.title, r.markdown])).toEqual(space.reusableContents.map((r) => [r.id, r.title, r.markdown]));
    expect(applyExport(files, back).plan.texts).toEqual(new Map());
  });
});
