import { describe, expect, it } from 'vitest';
import { analyze, classifyHref } from './markdown.ts';

const sections = (markdown: string) => analyze({ markdown }).sections;
const links = (markdown: string) => analyze({ markdown }).links;

describe('sections', () => {
  it('cuts at every heading, the text before the first one being a section without anchor', () => {
    const md = 'Lead **text**.\n\n# Getting started\n\nInstall it:\n\n```sh\nnpm i quire\n```\n\n## Getting started\n\n- one\n- two\n';
    expect(sections(md)).toEqual([
      { anchor: '', title: '', body: 'Lead text.' },
      { anchor: 'getting-started', title: 'Getting started', body: 'Install it:\nnpm i quire' },
      { anchor: 'getting-started-1', title: 'Getting started', body: 'one\ntwo' },
    ]);
  });

  it('has no lead section when the document starts with a heading, keeps empty headings', () => {
    expect(sections('# Only a title\n')).toEqual([{ anchor: 'only-a-title', title: 'Only a title', body: '' }]);
    expect(sections('')).toEqual([]);
  });

  it("takes GitBook's explicit anchors and leaves raw HTML out of titles", () => {
    expect(sections('## Setup <a href="#install" id="install"></a>\n\ntext')).toEqual([{ anchor: 'install', title: 'Setup', body: 'text' }]);
  });

  it("reads GitBook's blocks as structure: their tags are never text, their content is", () => {
    const md = '# Note\n\n{% hint style="warning" %}\nMind the **gap**.\n{% endhint %}\n\n{% tabs %}\n{% tab title="Linux" %}\nRun it.\n{% endtab %}\n{% endtabs %}\n';
    const [section] = sections(md);
    expect(section).toEqual({ anchor: 'note', title: 'Note', body: 'Mind the gap.\nLinux\nRun it.' });
    expect(JSON.stringify(sections(md))).not.toMatch(/{%|endhint|style=/);
  });

  it("anchors headings GitBook's way (transliterated), numbering repeats", () => {
    expect(sections('# Café Crème\n\n# Café Crème\n').map((s) => s.anchor)).toEqual(['cafe-creme', 'cafe-creme-1']);
  });

  // The document model keeps a table's column titles in its definition, not as text: not indexed.
  it('keeps table cells and image alt text as text, a line each', () => {
    expect(sections('| Name | Role |\n| - | - |\n| Ada | admin |\n\n![A diagram](d.png)')[0]!.body).toBe('Ada\nadmin\nA diagram');
  });
});

describe('classifyHref', () => {
  it('tells internal references from URLs', () => {
    expect(classifyHref('/pages/abc')).toEqual({ kind: 'page', target: 'abc', anchor: '' });
    expect(classifyHref('/pages/abc#install')).toEqual({ kind: 'page', target: 'abc', anchor: 'install' });
    expect(classifyHref('/files/f1')).toEqual({ kind: 'file', target: 'f1', anchor: '' });
    expect(classifyHref('#top')).toEqual({ kind: 'anchor', target: '', anchor: 'top' });
    expect(classifyHref('../guide/set%20up.md#x')).toEqual({ kind: 'page', target: 'path:../guide/set up.md', anchor: 'x' });
    expect(classifyHref('https://example.com/a#b')).toEqual({ kind: 'url', target: 'https://example.com/a#b', anchor: '' });
    expect(classifyHref('mailto:a@b.c')).toEqual({ kind: 'url', target: 'mailto:a@b.c', anchor: '' });
    expect(classifyHref('/o/org/s/space/')).toEqual({ kind: 'url', target: '/o/org/s/space/', anchor: '' });
    expect(classifyHref('https://example.com/readme.md')!.kind).toBe('url');
    expect(classifyHref('')).toBeUndefined();
    expect(classifyHref('#')).toBeUndefined();
  });
});

describe('links', () => {
  it('lists links and images in document order, reference-style ones resolved', () => {
    const md = 'See [the guide](/pages/p1#setup) and ![logo](/files/f1).\n\n[ref]: https://example.com\n\nAlso [this][ref] and [top](#top) and <https://auto.example>.\n';
    expect(links(md)).toEqual([
      { relation: 'link', kind: 'page', target: 'p1', anchor: 'setup' },
      { relation: 'embed', kind: 'file', target: 'f1', anchor: '' },
      { relation: 'link', kind: 'url', target: 'https://example.com', anchor: '' },
      { relation: 'link', kind: 'anchor', target: '', anchor: 'top' },
      { relation: 'link', kind: 'url', target: 'https://auto.example', anchor: '' },
    ]);
  });

  it('lists the destinations GitBook’s blocks hold: content references, files, figures', () => {
    const md = [
      '{% content-ref url="guide/setup.md" %}',
      '[setup.md](guide/setup.md)',
      '{% endcontent-ref %}',
      '',
      '{% file src="/files/f2" %}',
      '',
      '<figure><img src="/files/f3" alt=""><figcaption></figcaption></figure>',
      '',
      // Bare addresses are text in GitBook's model, as the reader shows them: not links.
      'See www.example.org and https://bare.example',
    ].join('\n');
    expect(links(md)).toEqual([
      { relation: 'link', kind: 'page', target: 'path:guide/setup.md', anchor: '' },
      { relation: 'link', kind: 'file', target: 'f2', anchor: '' },
      { relation: 'embed', kind: 'file', target: 'f3', anchor: '' },
    ]);
  });

  it('stores the document with its destinations as written', () => {
    const { document } = analyze({ markdown: '[a](../a.md) ![b](/files/f1)' });
    expect(JSON.stringify(document)).toContain('{"kind":"url","url":"../a.md"}');
    expect(JSON.stringify(document)).toContain('{"kind":"url","url":"/files/f1"}');
  });

  it('skips references without a definition', () => {
    expect(links('[dangling][nowhere]')).toEqual([]);
  });
});
