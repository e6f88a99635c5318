import { describe, expect, it } from 'vitest';
import { anchorSlug, fromMarkdown, sections, toPlainText, type JSONDocument } from '../src/index.ts';

describe('anchorSlug', () => {
  it('lower-cases and transliterates as GitBook anchors do', () => {
    expect(anchorSlug('Getting Started')).toBe('getting-started');
    expect(anchorSlug('Café Crème & Co.')).toBe('cafe-creme-and-co');
    expect(anchorSlug('Über größe')).toBe('ueber-groesse');
    expect(anchorSlug('Привет, мир')).toBe('privet-mir');
    expect(anchorSlug('GitBook API')).toBe('gitbook-api');
    // Chinese in pinyin, Japanese and Korean romanized, as GitBook's links to such headings spell them (`#zhun-bei`).
    expect(anchorSlug('你好 世界')).toBe('ni-hao-shi-jie');
    expect(anchorSlug('准备')).toBe('zhun-bei');
    expect(anchorSlug('安装 Node.js')).toBe('an-zhuang-node-js');
    expect(anchorSlug('한국어')).toBe('hangugeo');
    expect(anchorSlug('!!!')).toBe('');
  });
});

describe('sections', () => {
  it('finds an API operation by its method and path', () => {
    const document = fromMarkdown('# API\n\n{% openapi-operation spec="billing" path="/invoices/{id}" method="get" %}\n{% endopenapi-operation %}\n');
    expect(sections(document)).toEqual([{ heading: 'API', anchor: 'api', level: 1, text: 'GET /invoices/{id}' }]);
  });

  it('splits the text at headings, without markup', () => {
    const document = fromMarkdown(
      [
        'Intro with **bold** and a [link](x.md).',
        '',
        '# Install',
        '',
        '{% hint style="info" %}',
        'Needs `node`.',
        '{% endhint %}',
        '',
        '```sh',
        'npm i quire',
        '```',
        '',
        '## Install',
        '',
        '| a | b |',
        '| - | - |',
        '| 1 | 2 |',
        '',
        '## Custom <a href="#own" id="own"></a>',
        '',
        '<details>',
        '',
        '<summary>More</summary>',
        '',
        '* one',
        '* two',
        '',
        '</details>',
        '',
      ].join('\n'),
    );
    expect(sections(document)).toEqual([
      { heading: '', anchor: '', level: 0, text: 'Intro with bold and a link.' },
      { heading: 'Install', anchor: 'install', level: 1, text: 'Needs node.\nnpm i quire' },
      { heading: 'Install', anchor: 'install-1', level: 2, text: '1\n2' },
      { heading: 'Custom', anchor: 'own', level: 2, text: 'More\none\ntwo' },
    ]);
    expect(toPlainText(document)).toBe('Intro with bold and a link.\nInstall\nNeeds node.\nnpm i quire\nInstall\n1\n2\nCustom\nMore\none\ntwo');
  });

  it('holds the notes of annotations after the line they annotate', () => {
    const text = (t: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: t, marks: [] }] });
    const note = (t: string) => ({
      object: 'fragment' as const,
      type: 'annotation-body' as const,
      fragment: 'note',
      nodes: [{ object: 'block' as const, type: 'paragraph' as const, data: {}, nodes: [text(t)] }],
    });
    const annotated = (words: string, body: string) => ({
      object: 'inline' as const,
      type: 'annotation' as const,
      isVoid: false as const,
      data: {},
      nodes: [text(words)],
      fragments: [note(body)],
    });
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'heading-1', data: {}, nodes: [text('Setup '), annotated('quickly', 'In under a minute.')] },
        { object: 'block', type: 'paragraph', data: {}, nodes: [text('Run the '), annotated('installer', 'Linux and macOS only.'), text(' once.')] },
      ],
    } as JSONDocument;
    expect(sections(document)).toEqual([
      { heading: 'Setup quickly', anchor: 'setup-quickly', level: 1, text: 'In under a minute.\nRun the installer once.\nLinux and macOS only.' },
    ]);
    expect(toPlainText(document)).toBe('Setup quickly\nIn under a minute.\nRun the installer once.\nLinux and macOS only.');
  });

  it('never holds a GitBook tag read as text, only what it encloses; code keeps its own', () => {
    const document = fromMarkdown(
      [
        'Careful: {% hint style="info" %} a hint in a line {% endhint %}',
        '',
        '{% endhint %}',
        '',
        '{% swagger method="get" path="/pets" summary="List pets" %}',
        '{% swagger-description %}',
        'Lists the pets.',
        '{% endswagger-description %}',
        '{% endswagger %}',
        '',
        '| Option | Notes |',
        '| - | - |',
        '| a | {% tab title="x" %} in a cell {% endtab %} |',
        '',
        '```liquid',
        '{% if pet %}{{ pet.name }}{% endif %}',
        '```',
        '',
        'Braces that are no tag: {%d} and {% 1 %} and 50%} stay.',
      ].join('\n'),
    );
    expect(sections(document)).toEqual([
      {
        heading: '',
        anchor: '',
        level: 0,
        text: 'Careful:   a hint in a line\nLists the pets.\na\nin a cell\n{% if pet %}{{ pet.name }}{% endif %}\nBraces that are no tag: {%d} and {% 1 %} and 50%} stay.',
      },
    ]);
    // The document and its plain text keep the tags as written.
    expect(toPlainText(document)).toContain('{% endhint %}');
  });

  it('has no section for an empty document', () => {
    expect(sections(fromMarkdown(''))).toEqual([]);
  });
});
