import { describe, expect, it } from 'vitest';
import type { SpacePage } from './exporter.ts';
import { applyExport, find, flat, importSpace, type Space } from './testing.ts';

// Shapes of repositories GitBook's Git Sync writes, each imported, exported onto itself (nothing
// changes) and to a new repository (imported back the same).

/** Each page's path as content makes it: the slugs from the root. */
const paths = (space: { pages: SpacePage[] }) => {
  const out: Record<string, string> = {};
  const walk = (list: SpacePage[], prefix: string) =>
    list.forEach((p) => {
      const path = prefix ? `${prefix}/${p.slug}` : p.slug;
      out[p.title] = path;
      walk(p.pages, path);
    });
  walk(space.pages, '');
  return out;
};

const unchanged = (repo: Record<string, string>, space: Space, projectDirectory = '') => {
  const { plan } = applyExport(repo, space, projectDirectory);
  return { texts: [...plan.texts.keys()], remove: plan.remove };
};

describe('paths GitBook publishes', () => {
  const repo = {
    'SUMMARY.md': [
      '# Table of contents',
      '',
      '* [Home](README.md)',
      '',
      '## 入门指南 <a href="#ru-men" id="ru-men"></a>',
      '',
      '* [安装](getting-started/install.md)',
      '',
      '## Editing & publishing',
      '',
      '* [Building with C++](editing-and-publishing/17.1.-building-with-visual-c++.md)',
      '* [Hubs + devices](editing-and-publishing/smartthings-hubs-+-devices.md)',
      '',
      '***',
      '',
      '* [Pricing](pricing.md)',
      '',
    ].join('\n'),
    'README.md': '# Home\n',
    'getting-started/install.md': '# 安装\n',
    'editing-and-publishing/17.1.-building-with-visual-c++.md': '# Building with C++\n',
    'editing-and-publishing/smartthings-hubs-+-devices.md': '# Hubs + devices\n',
    'pricing.md': '# Pricing\n',
  };

  it("takes a group's slug from its heading's anchor, `&` as `and`, file names' dots and pluses, and `***` ending a group", () => {
    const space = importSpace(repo);
    expect(paths(space)).toEqual({
      Home: 'home',
      入门指南: 'ru-men',
      安装: 'ru-men/install',
      'Editing & publishing': 'editing-and-publishing',
      'Building with C++': 'editing-and-publishing/17.1.-building-with-visual-c++',
      'Hubs + devices': 'editing-and-publishing/smartthings-hubs-+-devices',
      Pricing: 'pricing',
    });
    expect(unchanged(repo, space)).toEqual({ texts: [], remove: [] });
  });

  it('writes the anchors and the rule to a new repository, which imports back to the same paths', () => {
    const space = importSpace(repo);
    const { files } = applyExport({}, space);
    expect(files['SUMMARY.md']).toContain('\n## 入门指南 <a href="#ru-men" id="ru-men"></a>\n\n* [安装](ru-men/install.md)\n');
    expect(files['SUMMARY.md']).toContain('\n## Editing & publishing\n');
    expect(files['SUMMARY.md']).toContain('\n***\n\n* [Pricing](pricing.md)\n');
    expect(paths(importSpace(files))).toEqual(paths(space));
  });
});

describe('links and file mentions', () => {
  const repo = {
    '.gitbook.yaml': 'root: ./docs/\n',
    'docs/SUMMARY.md': '# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide/README.md)\n  * [pg_authid](guide/pg_authid.md)\n* [API](reference/api.md)\n',
    'docs/README.md': [
      '# Intro',
      '',
      'Read [the guide](guide/), [again](guide/README.md), [its page](guide/pg\\_authid.md) and [the API](reference/api).',
      '',
      '| Column | References |',
      '| ------ | ---------- |',
      '| `owner` | ``[`pg_authid`](guide/pg\\_authid.md).oid |',
      '| `space` | ``[`pg_authid`](guide/pg\\_authid.md).oid |',
      '',
      'Files: [spaced](.gitbook/assets/my%20spec.pdf), [angled](<.gitbook/assets/my spec.pdf>), [titled](.gitbook/assets/my%20spec.pdf "The spec"),',
      '[with a query](.gitbook/assets/my%20spec.pdf?raw=true), [with a fragment](.gitbook/assets/my%20spec.pdf#page=2), ![截图](<.gitbook/assets/截图 1.png>).',
      '',
      '{% file src=".gitbook/assets/SKILL (1).md" %}',
      '',
    ].join('\n'),
    'docs/guide/README.md': '# Guide\n\nBack to [the intro](../README.md).\n',
    'docs/guide/pg_authid.md': '# pg_authid\n\nSee [the guide](../guide/README.md).\n',
    'docs/reference/api.md':
      '# API\n\n{% openapi src="../.gitbook/assets/api spec.yaml" path="/pets" method="get" %}\n[api spec.yaml](../.gitbook/assets/api spec.yaml)\n{% endopenapi %}\n',
    'docs/.gitbook/assets/my spec.pdf': 'pdf',
    'docs/.gitbook/assets/截图 1.png': 'png',
    'docs/.gitbook/assets/SKILL (1).md': '# A file, not a page\n',
    'docs/.gitbook/assets/api spec.yaml': 'openapi: 3.0.0\n',
  };

  it('resolves every link to a page or a file of the space, however it is written', () => {
    const space = importSpace(repo, '');
    const file = (name: string) => space.files.find((f) => f.name === name)!.id;
    const [guide, authid, api] = [find(space, 'Guide').id, find(space, 'pg_authid').id, find(space, 'API').id];
    const intro = find(space, 'Intro').markdown!;
    expect(intro).toContain(`[the guide](/pages/${guide}), [again](/pages/${guide}), [its page](/pages/${authid}) and [the API](/pages/${api})`);
    expect(intro).toContain(`| \`owner\` | \`\`[\`pg_authid\`](/pages/${authid}).oid |`);
    expect(intro).toContain(`| \`space\` | \`\`[\`pg_authid\`](/pages/${authid}).oid |`);
    const spec = file('my spec.pdf');
    expect(intro).toContain(
      `[spaced](/files/${spec}), [angled](</files/${spec}>), [titled](/files/${spec} "The spec"),\n[with a query](/files/${spec}), [with a fragment](/files/${spec}), ![截图](</files/${file('截图 1.png')}>)`,
    );
    expect(intro).toContain(`{% file src="/files/${file('SKILL (1).md')}" %}`);
    expect(find(space, 'API').markdown).toContain(`{% openapi src="/files/${file('api spec.yaml')}" path="/pets" method="get" %}`);
    expect(find(space, 'pg_authid').markdown).toContain(`[the guide](/pages/${guide})`);
    expect(unchanged(repo, space)).toEqual({ texts: [], remove: [] });
  });

  it('writes the spec back as a path relative to the page in a new repository', () => {
    const space = importSpace(repo, '');
    const { files } = applyExport({}, space);
    expect(files['api.md']).toContain('{% openapi src=".gitbook/assets/api spec.yaml" path="/pets" method="get" %}');
    expect(files['guide/pg_authid.md']).toContain('[the guide](README.md)');
    const back = importSpace(files);
    expect(find(back, 'API').markdown).toMatch(/\{% openapi src="\/files\/[\w-]+" path="\/pets" method="get" %\}/);
  });
});

describe('front matter: cover and layout', () => {
  const layout = 'layout:\n  width: wide\n  outline:\n    visible: false\n  title:\n    visible: true\n';
  const repo = {
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Steps](guide/steps.md)\n',
    'README.md': `---\ncover: .gitbook/assets/hero (1).png\ncoverY: -42\n${layout}---\n\n# Home\n`,
    'guide/README.md': '---\ndescription: The guide\ncover: ../.gitbook/assets/guide%20cover.png\n---\n\n# Guide\n',
    // Written from the docs root.
    'guide/steps.md': `---\n${layout}cover: .gitbook/assets/hero (1).png\ncoverY: 10\n---\n\n# Steps\n`,
    '.gitbook/assets/hero (1).png': 'png',
    '.gitbook/assets/guide cover.png': 'png',
  };

  it("imports the cover as the space's file, every layout key as written, and exports them back", () => {
    const space = importSpace(repo);
    const file = (name: string) => space.files.find((f) => f.name === name)!.id;
    expect(find(space, 'Home').markdown).toBe(`---\ncover: /files/${file('hero (1).png')}\ncoverY: -42\n${layout}---\n`);
    expect(find(space, 'Guide').markdown).toBe(`---\ndescription: The guide\ncover: /files/${file('guide cover.png')}\n---\n`);
    expect(find(space, 'Steps').markdown).toBe(`---\n${layout}cover: /files/${file('hero (1).png')}\ncoverY: 10\n---\n`);
    expect(unchanged(repo, space)).toEqual({ texts: [], remove: [] });

    // An edited field rewrites the file: the cover is a path from the page again.
    const guide = find(space, 'Guide');
    guide.description = 'The whole guide';
    const { files } = applyExport(repo, space);
    expect(files['guide/README.md']).toBe('---\ndescription: The whole guide\ncover: ../.gitbook/assets/guide cover.png\n---\n\n# Guide\n');

    // In a new repository, from where each page and file is there.
    const fresh = applyExport({}, space).files;
    expect(fresh['guide/steps.md']).toBe(`---\n${layout}cover: ../.gitbook/assets/hero (1).png\ncoverY: 10\n---\n\n# Steps\n`);
    expect(fresh['README.md']).toBe(`---\ncover: .gitbook/assets/hero (1).png\ncoverY: -42\n${layout}---\n\n# Home\n`);
  });
});

describe('redirects', () => {
  const repo = {
    '.gitbook.yaml': [
      'root: ./',
      'redirects:',
      '  to-file: guide/steps.md',
      '  without-md: guide/steps',
      '  from-root: /guide/steps.md#part',
      '  to-folder: guide/',
      '  moved-once: old/place.md',
      '  old/place: guide/steps.md',
      '  unlisted: notes.md',
      '',
    ].join('\n'),
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n\n## Manual\n\n* [Overview](guide/README.md)\n  * [Steps](guide/steps.md)\n',
    'README.md': '# Home\n',
    'guide/README.md': '# Overview\n',
    'guide/steps.md': '# Steps\n',
    'notes.md': '# Not listed\n',
  };

  it('leads every redirect to its page: paths with or without `.md`, from the root, to a folder, through a redirect that moved it on', () => {
    const space = importSpace(repo);
    const [overview, steps] = [find(space, 'Overview').id, find(space, 'Steps').id];
    expect(space.redirects).toEqual([
      { path: 'to-file', pageId: steps, anchor: '' },
      { path: 'without-md', pageId: steps, anchor: '' },
      { path: 'from-root', pageId: steps, anchor: 'part' },
      { path: 'to-folder', pageId: overview, anchor: '' },
      { path: 'moved-once', pageId: steps, anchor: '' },
      { path: 'old/place', pageId: steps, anchor: '' },
    ]);
  });

  it('writes every one into a new repository, a redirect to a group as to its first page', () => {
    const space = importSpace(repo);
    const group = flat(space.pages).find((p) => p.type === 'group')!;
    space.redirects = [...space.redirects!, { path: 'the-group', pageId: group.id, anchor: '' }];
    const { files } = applyExport({}, space);
    expect(files['.gitbook.yaml']).toContain(
      'redirects:\n  to-file: manual/guide/steps.md\n  without-md: manual/guide/steps.md\n  from-root: manual/guide/steps.md#part\n  to-folder: manual/guide/README.md\n  moved-once: manual/guide/steps.md\n  old/place: manual/guide/steps.md\n  the-group: manual/guide/README.md\n',
    );
    expect(importSpace(files).redirects).toHaveLength(7);
  });
});

describe('pages outside the docs root', () => {
  const repo = {
    '.gitbook.yaml': 'root: ./docs/\n',
    'docs/SUMMARY.md': '# Table of contents\n\n* [Intro](README.md)\n* [Example](../examples/x/README.md)\n* [Notebook](notebooks/analysis.ipynb)\n',
    'docs/README.md': '# Intro\n\nSee [the example](../examples/x/README.md).\n',
    'examples/x/README.md': '# Example\n\nRun it.\n',
    'docs/notebooks/analysis.ipynb': '{"cells": []}',
  };

  it('leaves their files where they are, unwritten and never removed, even when the summary is written again', () => {
    const space = importSpace(repo);
    expect(find(space, 'Example').git?.path).toBe('examples/x/README.md');
    expect(find(space, 'Notebook').git?.path).toBe('docs/notebooks/analysis.ipynb');
    expect(unchanged(repo, space)).toEqual({ texts: [], remove: [] });

    // A new page makes a new summary: the two files stay, listed by their paths.
    space.pages.push({ ...find(space, 'Intro'), id: 'new', title: 'New', slug: 'new', git: undefined, pages: [] });
    const { plan, files } = applyExport(repo, space);
    expect(plan.remove).toEqual([]);
    expect([...plan.texts.keys()].sort()).toEqual(['docs/SUMMARY.md', 'docs/new.md']);
    expect(files['docs/SUMMARY.md']).toContain('* [Example](../examples/x/README.md)\n* [Notebook](notebooks/analysis.ipynb)\n');
    expect(files['examples/x/README.md']).toBe(repo['examples/x/README.md']);
  });
});
