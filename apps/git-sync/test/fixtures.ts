import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A GitBook-shaped docs repository: config, summary with a group, nested folders, assets, relative links. */
export const DOCS_REPO: Record<string, string | Buffer> = {
  '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'docs/README.md':
    '---\ndescription: What this is\n---\n\n# Introduction\n\nStart with [the install guide](getting-started/install.md#requirements).\n\n![Logo](.gitbook/assets/logo.png)\n',
  'docs/SUMMARY.md':
    '# Table of contents\n\n* [Introduction](README.md)\n* [Getting started](getting-started/README.md)\n  * [Install](getting-started/install.md)\n  * [Configure](getting-started/configure/README.md)\n    * [Advanced](getting-started/configure/advanced.md)\n* [Changelog](https://example.com/changelog)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'docs/getting-started/README.md': '# Getting started\n\nRead [Install](install.md) then [Advanced](configure/advanced.md).\n',
  'docs/getting-started/install.md':
    '# Install\n\n## Requirements\n\nNode 20.\n\n<figure><img src="../.gitbook/assets/screen shot.png" alt=""><figcaption></figcaption></figure>\n',
  'docs/getting-started/configure/README.md': '# Configure\n\nSettings. Back to [the start](../../README.md).\n',
  'docs/getting-started/configure/advanced.md': '# Advanced\n\nSee the [API](../../reference/api.md) and the [source](../../../src/index.ts).\n',
  'docs/reference/api.md': '# API\n\n![Diagram](diagram.svg)\n',
  'docs/reference/diagram.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'docs/.gitbook/assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
  'docs/.gitbook/assets/screen shot.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 4, 5, 6]),
  'src/index.ts': 'export {};\n',
};

// Every GitBook block as the document model's own fixtures spell them (GitBook's Git Sync output).
const BLOCKS_DIR = fileURLToPath(new URL('../../../packages/document/test/fixtures/', import.meta.url));
const blocks = Object.fromEntries(readdirSync(BLOCKS_DIR).map((name) => [`manual/docs/blocks/${name}`, readFileSync(join(BLOCKS_DIR, name), 'utf8')]));

/**
 * A manual in Chinese laid out for GitBook's Git Sync in a project directory (`manual/`): `root:`
 * with redirects, a readme outside the project directory, CJK titles and file names, underscores
 * and dots in names, escaped link destinations and anchors, a heading other than the summary's
 * title, front matter GitBook writes, every block kind, and what the space does not own: unlisted
 * markdown, images outside `.gitbook/assets`, `.gitbook/` files, other folders.
 */
export const MANUAL_REPO: Record<string, string | Buffer> = {
  'README.md': '# 项目\n\n这个仓库包含手册。\n',
  'src/main.c': 'int main(void) { return 0; }\n',
  'manual/.gitbook.yaml':
    'root: ./docs/\n\nstructure:\n  readme: ../../README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/install: guide/install_steps.md\n  faq: reference/api_v2.1.md\n  /setup/prepare/: guide/install_steps.md#zhun-bei\n  notes: appendix/notes.md\n',
  'manual/docs/SUMMARY.md': [
    '# Table of contents',
    '',
    '- [项目简介](../../README.md)',
    '- [安装指南](guide/)',
    '  - [安装步骤](guide/install_steps.md)',
    '  - [计时](guide/pg\\_test\\_timing.md)',
    '  - [准备工作](guide/install_steps.md#zhun-bei)',
    '- [API v2.1](reference/api_v2.1.md)',
    '',
    '## 区块 <a href="#blocks" id="blocks"></a>',
    '',
    ...Object.keys(blocks)
      .sort()
      .map((p) => `- [${p.slice('manual/docs/blocks/'.length, -3)}](blocks/${p.slice('manual/docs/blocks/'.length)})`),
    '',
  ].join('\n'),
  'manual/docs/guide/README.md':
    '---\ndescription: >-\n  如何安装\n  这个项目\nlayout:\n  cover:\n    visible: true\ncoverY: 0\n---\n\n# 安装指南\n\n先读[安装步骤](install_steps.md#zhun-bei)，再看[计时](pg\\_test\\_timing.md)。\n\n![架构图](../images/arch.png)\n',
  'manual/docs/guide/install_steps.md':
    '# 安装所有组件\n\n## 准备\n\n需要 Node 20。\n\n{% hint style="warning" %}\n先备份。\n{% endhint %}\n\n<figure><img src="../.gitbook/assets/截图 1.png" alt=""><figcaption><p>截图</p></figcaption></figure>\n',
  // Includes above the docs root (the repository's readme, and `..` beyond the repository): never read.
  'manual/docs/guide/pg_test_timing.md': '# 计时\n\n回到[指南](./)。\n\n{% include "../../../README.md" %}\n\n{% include "../../../../etc/passwd.md" %}\n',
  'manual/docs/reference/api_v2.1.md':
    '没有标题的页面。\n\n{% content-ref url="../guide/install_steps.md" %}\n[install_steps.md](../guide/install_steps.md)\n{% endcontent-ref %}\n\n{% file src="../.gitbook/assets/spec.pdf" %}\n',
  ...blocks,
  'manual/docs/appendix/notes.md': '# 附录（未列出）\n',
  'manual/docs/templates/page.md': '# Template {{ name }}\n',
  'manual/docs/images/arch.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]),
  'manual/docs/.gitbook/assets/截图 1.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 8, 8, 8]),
  'manual/docs/.gitbook/assets/spec.pdf': '%PDF-1.4 spec\n',
  'manual/docs/.gitbook/includes/tags.yaml': 'tags:\n  - 安装\n',
  // What blocks/include.md includes: reusable content, no page of the space.
  'manual/docs/.gitbook/includes/setup-steps.md': '---\ntitle: Setup steps\n---\n\n1. 下载\n2. 安装\n\n{% include "note.md" %}\n',
  // Included by setup-steps.md.
  'manual/docs/.gitbook/includes/note.md': '---\ntitle: 注意\n---\n\n先[备份](../../guide/install_steps.md)。\n',
};

/**
 * Repositories of the shapes GitBook's Git Sync leaves that an import has to read as GitBook
 * publishes them, and that an export onto them must leave as they are.
 */
export const SHAPES = {
  // Groups whose slug is their heading's anchor, `&` in a title, dots and pluses in file names, `***` ending a group.
  groups: {
    'SUMMARY.md':
      '# Table of contents\n\n* [Home](README.md)\n\n## 入门指南 <a href="#ru-men" id="ru-men"></a>\n\n* [安装](ru-men/install.md)\n\n## Editing & publishing\n\n* [Building with C++](editing-and-publishing/17.1.-building-with-visual-c++.md)\n\n***\n\n* [Pricing](pricing.md)\n',
    'README.md': '# Home\n\nStart with [安装](ru-men/install.md).\n',
    'ru-men/install.md': '# 安装\n',
    'editing-and-publishing/17.1.-building-with-visual-c++.md': '# Building with C++\n',
    'pricing.md': '# Pricing\n',
  },
  // Links to pages written with escapes, to folders and READMEs; files named by specs, spaces, angle brackets, titles, queries.
  links: {
    'SUMMARY.md': '# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide/README.md)\n  * [pg_authid](guide/pg_authid.md)\n* [API](reference/api.md)\n',
    'README.md':
      'Read [the guide](guide/), [its readme](guide/README.md) and [pg\\_authid](guide/pg\\_authid.md).\n\n| Column | References |\n| --- | --- |\n| `owner` | ``[`pg_authid`](guide/pg\\_authid.md).oid |\n| `space` | ``[`pg_authid`](guide/pg\\_authid.md).oid |\n\nThe [spec](.gitbook/assets/my%20spec.pdf "Spec"), [again](<.gitbook/assets/my spec.pdf>), [raw](.gitbook/assets/my%20spec.pdf?raw=true).\n\n{% file src=".gitbook/assets/SKILL (1).md" %}\n',
    'guide/README.md': '# Guide\n\nBack to [the intro](../README.md).\n',
    'guide/pg_authid.md': '# pg_authid\n',
    'reference/api.md':
      '# API\n\n{% openapi src="../.gitbook/assets/api spec.yaml" path="/pets" method="get" %}\n[api spec.yaml](../.gitbook/assets/api spec.yaml)\n{% endopenapi %}\n',
    '.gitbook/assets/my spec.pdf': '%PDF-1.4\n',
    '.gitbook/assets/SKILL (1).md': '# A file, not a page\n',
    '.gitbook/assets/api spec.yaml': 'openapi: 3.0.0\n',
  },
  // Covers relative to the page and to the docs root, layouts with some keys, in other orders.
  covers: {
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n',
    'README.md': '---\ncover: .gitbook/assets/hero (1).png\ncoverY: -42\nlayout:\n  width: wide\n  title:\n    visible: false\n---\n\n# Home\n',
    'guide/README.md':
      '---\nlayout:\n  outline:\n    visible: false\n  pagination:\n    visible: true\ncover: ../.gitbook/assets/guide%20cover.png\ndescription: The guide\n---\n\n# Guide\n',
    '.gitbook/assets/hero (1).png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]),
    '.gitbook/assets/guide cover.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 2]),
  },
  // Redirects to files with and without `.md`, from the root, to folders, through another redirect.
  redirects: {
    '.gitbook.yaml':
      'root: ./\n\nredirects:\n  to-file: guide/steps.md\n  without-md: guide/steps\n  from-root: /guide/steps.md#part\n  to-folder: guide/\n  moved-once: old/place.md\n  old/place: guide/steps.md\n',
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Steps](guide/steps.md)\n',
    'README.md': '# Home\n',
    'guide/README.md': '# Guide\n',
    'guide/steps.md': '# Steps\n',
  },
  // A summary listing pages above the docs root and a notebook: files the space never writes.
  outside: {
    '.gitbook.yaml': 'root: ./docs/\n',
    'docs/SUMMARY.md': '# Table of contents\n\n* [Intro](README.md)\n* [Example](../examples/x/README.md)\n* [Notebook](notebooks/analysis.ipynb)\n',
    'docs/README.md': '# Intro\n\nSee [the example](../examples/x/README.md).\n',
    'examples/x/README.md': '# Example\n\nRun it.\n',
    'examples/x/main.py': 'print("x")\n',
    'docs/notebooks/analysis.ipynb': '{"cells": []}\n',
  },
} satisfies Record<string, Record<string, string | Buffer>>;
