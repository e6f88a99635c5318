import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { analyze, classifyHref, links, parseMarkdown, sections } from './markdown.ts';

describe('parseMarkdown', () => {
  it('parses GitHub-flavoured markdown (tables) and leaves front matter out', () => {
    const root = parseMarkdown('---\ndescription: hi\n---\n# Title\n\n| a | b |\n| - | - |\n| 1 | 2 |\n');
    expect(root.children.map((c) => c.type)).toEqual(['heading', 'table']);
  });

  // The parse skips the GFM extensions for documents without GFM syntax: the tree must not change.
  const gfm = unified().use(remarkParse).use(remarkGfm);
  const asGfm = (md: string) => expect(parseMarkdown(md)).toEqual(gfm.parse(md));

  it('parses documents without GFM syntax exactly as with it', () => {
    const pieces = [
      '# Title <a href="#custom" id="custom"></a>',
      'Setext\n===',
      'a\n-',
      'Text with *emphasis*, **strong**, `code` and a hard  \nbreak &amp; entities.',
      '- [x](page.md) is a link, not a task\n- [ref] and [x]y\n  1. nested',
      '[ref]: /files/abc "Title"\n\nSee [it][ref] and ![img](a.png).',
      '> quote\n> - in a list',
      '```js\nconst a = [1];\n```',
      '<div>html</div>',
      'No autolink: example.com, http:x, wwwexample and foo at bar.',
      '***',
      '    indented code',
      'Line\r\nwith CRLF [ ]x',
    ];
    for (const p of pieces) asGfm(p);
    // And any mix of them, in a fixed pseudo-random order.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let n = 0; n < 50; n++) asGfm(Array.from({ length: 1 + (next() % 8) }, () => pieces[next() % pieces.length]).join(next() % 2 ? '\n\n' : '\n'));
  });

  it('parses GFM syntax with GFM', () => {
    const docs = {
      table: '| a |\n| - |\n| 1 |',
      delete: 'Some ~~gone~~ text',
      footnoteReference: 'Note[^1]\n\n[^1]: here',
      listItem: '- [x] done\n- [ ]\ttodo',
      link: 'Visit www.example.org, https://example.org/x or mail me@example.org',
    };
    for (const [type, md] of Object.entries(docs)) {
      asGfm(md);
      expect(JSON.stringify(parseMarkdown(md))).toContain(type === 'listItem' ? '"checked":true' : `"type":"${type}"`);
    }
  });

  it('analyzes sections and links as each alone finds them', () => {
    const md = '# A\n\nSee [b](b.md) and https://example.org\n\n## B\n\n![x](/files/f1)';
    expect(analyze(md)).toEqual({ sections: sections(md), links: links(md) });
  });
});

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

  it('skips references without a definition', () => {
    expect(links('[dangling][nowhere]')).toEqual([]);
  });
});
