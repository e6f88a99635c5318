import { describe, expect, it } from 'vitest';
import { anchorSlug, fromMarkdown, sections, toPlainText } from '../src/index.ts';

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

  it('has no section for an empty document', () => {
    expect(sections(fromMarkdown(''))).toEqual([]);
  });
});
