/** A GitBook-shaped docs repository: config, summary with a group, nested folders, assets, relative links. */
export const DOCS_REPO: Record<string, string | Buffer> = {
  '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'docs/README.md': '---\ndescription: What this is\n---\n\n# Introduction\n\nStart with [the install guide](getting-started/install.md#requirements).\n\n![Logo](.gitbook/assets/logo.png)\n',
  'docs/SUMMARY.md':
    '# Table of contents\n\n* [Introduction](README.md)\n* [Getting started](getting-started/README.md)\n  * [Install](getting-started/install.md)\n  * [Configure](getting-started/configure/README.md)\n    * [Advanced](getting-started/configure/advanced.md)\n* [Changelog](https://example.com/changelog)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'docs/getting-started/README.md': '# Getting started\n\nRead [Install](install.md) then [Advanced](configure/advanced.md).\n',
  'docs/getting-started/install.md': '# Install\n\n## Requirements\n\nNode 20.\n\n<figure><img src="../.gitbook/assets/screen shot.png" alt=""><figcaption></figcaption></figure>\n',
  'docs/getting-started/configure/README.md': '# Configure\n\nSettings. Back to [the start](../../README.md).\n',
  'docs/getting-started/configure/advanced.md': '# Advanced\n\nSee the [API](../../reference/api.md) and the [source](../../../src/index.ts).\n',
  'docs/reference/api.md': '# API\n\n![Diagram](diagram.svg)\n',
  'docs/reference/diagram.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'docs/.gitbook/assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
  'docs/.gitbook/assets/screen shot.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 4, 5, 6]),
  'src/index.ts': 'export {};\n',
};
