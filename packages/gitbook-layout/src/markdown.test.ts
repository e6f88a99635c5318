import { describe, expect, it } from 'vitest';
import { parseGfm } from '@quire/document/gfm';
import { joinPageFile, plainText, rewriteIncludes, rewriteLinks, splitPageFile } from './markdown.ts';

// The parts but the body with its heading (tested on its own).
const split = (text: string) => {
  const { headed: _headed, ...rest } = splitPageFile(text);
  return rest;
};

describe('plainText', () => {
  it('is what a reader sees of GFM markup', () => {
    expect(plainText(parseGfm('~~Old~~ title'))).toBe('Old title');
  });
});

describe('splitPageFile', () => {
  it('takes front matter and the leading level-1 heading out of the body', () => {
    expect(split('---\ndescription: Hi\nhidden: true\n---\n# Title\n\nBody\n')).toEqual({ front: { description: 'Hi', hidden: true }, heading: 'Title', body: 'Body\n' });
    expect(split('\n#   Spaced title ##  \nBody')).toEqual({ front: {}, heading: 'Spaced title', body: 'Body' });
    expect(split('Setext *title*\n=====\n\nBody')).toEqual({ front: {}, heading: 'Setext title', body: 'Body' });
    expect(split('# Use `npm` and [docs](x.md)\nBody').heading).toBe('Use npm and docs');
  });

  it('leaves other first blocks in the body', () => {
    expect(split('## Second level\n\nBody')).toEqual({ front: {}, body: '## Second level\n\nBody' });
    expect(split('#hashtag is text\n')).toEqual({ front: {}, body: '#hashtag is text\n' });
    expect(split('Intro\n\n# Later\n')).toEqual({ front: {}, body: 'Intro\n\n# Later\n' });
    expect(split('---\njust a rule\n---\nText')).toEqual({ front: {}, body: '---\njust a rule\n---\nText' });
  });

  // Attack: Git import's title patterns backtracked in quadratic to cubic time on runs of spaces.
  it("reads an attacker's first lines in linear time", () => {
    const attacks = [
      '# a' + ' '.repeat(100_000) + 'x',
      'a' + ' '.repeat(100_000) + 'x\n===',
      'Title' + ' \t'.repeat(50_000) + '\r',
      '\n'.repeat(50_000) + '# ' + '#'.repeat(50_000) + 'x',
    ];
    for (const text of attacks) {
      const started = performance.now();
      split(text);
      joinPageFile('T', {}, text);
      expect(performance.now() - started).toBeLessThan(100);
    }
    expect(split('# a' + ' '.repeat(2000) + 'x\nBody')).toEqual({ front: {}, heading: 'a' + ' '.repeat(2000) + 'x', body: 'Body' });
    expect(split('Learn C#\n===\nBody')).toEqual({ front: {}, heading: 'Learn C#', body: 'Body' });
    expect(split('# Learn C#\nBody')).toEqual({ front: {}, heading: 'Learn C#', body: 'Body' });
  });

  it('round-trips with joinPageFile', () => {
    const text = joinPageFile('A title', { description: 'D', hidden: false, emoji: '' }, 'Body\n');
    expect(text).toBe('---\ndescription: D\n---\n\n# A title\n\nBody\n');
    expect(splitPageFile('---\nlayout: x\n---\n# A\n\nB\n')).toEqual({ front: {}, matter: '---\nlayout: x\n---\n', heading: 'A', body: 'B\n', headed: '# A\n\nB\n' });
    expect(split(text)).toEqual({ front: { description: 'D' }, heading: 'A title', body: 'Body\n' });
  });

  it('writes the front matter the import kept, changing only the fields that changed', () => {
    const matter = '---\ndescription: >-\n  Folded\n  text\nlayout:\n  width: wide\n---\n';
    expect(joinPageFile('T', { description: 'Folded text' }, 'Body\n', { matter })).toBe(`${matter}\n# T\n\nBody\n`);
    expect(joinPageFile('T', { description: 'New', hidden: true }, 'Body\n', { matter, heading: false })).toBe(
      '---\ndescription: >-\n  New\nlayout:\n  width: wide\nhidden: true\n---\n\nBody\n',
    );
  });
});

describe('rewriteLinks', () => {
  it('rewrites link, image, definition and HTML targets in place, not code', () => {
    const md = 'A [x](a.md "t") ![i](img.png)\n\n[ref]: a.md\n\n<img src="img.png">\n\n```\n[x](a.md)\n```\n';
    const out = rewriteLinks(md, (u) => (u === 'a.md' ? '/pages/P' : u === 'img.png' ? '/files/F' : undefined));
    expect(out).toBe('A [x](/pages/P "t") ![i](/files/F)\n\n[ref]: /pages/P\n\n<img src="/files/F">\n\n```\n[x](a.md)\n```\n');
    expect(rewriteLinks('no links here', () => 'x')).toBe('no links here');
    expect(rewriteLinks('{% content-ref url="a.md" %}\n[a.md](a.md)\n{% endcontent-ref %}\n\n{% file src="f.pdf" %}\n', (u) => `/${u}`)).toBe(
      '{% content-ref url="/a.md" %}\n[a.md](/a.md)\n{% endcontent-ref %}\n\n{% file src="/f.pdf" %}\n',
    );
    expect(rewriteLinks('[t](pg\\_test\\_timing.md#x) [u](<a\\_b.md>)', (u) => `/${u}`)).toBe('[t](/pg_test_timing.md#x) [u](</a_b.md>)');
    expect(rewriteLinks('[a.md](a.md "about a.md") and [b](<a.md>)', (u) => (u === 'a.md' ? 'B' : undefined))).toBe('[a.md](B "about a.md") and [b](<B>)');
  });

  it('leaves GitBook tags written in code alone', () => {
    const md = 'Write `{% file src="a.pdf" %}` for a file:\n\n```markdown\n{% content-ref url="a.md" %}\n[a](a.md)\n{% endcontent-ref %}\n```\n\n{% file src="a.pdf" %}\n';
    const seen: string[] = [];
    expect(rewriteLinks(md, (u) => (seen.push(u), `/${u}`))).toBe(md.replace('\n{% file src="a.pdf" %}\n', '\n{% file src="/a.pdf" %}\n'));
    expect(seen).toEqual(['a.pdf']);
  });

  it('gives every target to rewrite, in document order, again for a text already parsed', () => {
    const md = '[a](a.md) <a href="b.md">b</a>\n\n[c][ref]\n\n[ref]: c.md\n';
    for (let i = 0; i < 2; i++) {
      const seen: string[] = [];
      expect(rewriteLinks(md, (u) => (seen.push(u), u.toUpperCase()))).toBe('[a](A.MD) <a href="B.MD">b</a>\n\n[c][ref]\n\n[ref]: C.MD\n');
      expect(seen).toEqual(['a.md', 'b.md', 'c.md']);
    }
  });
});

describe('rewriteIncludes', () => {
  it('rewrites include tags in place, and neither reads nor rewrites one shown in code', () => {
    const md = '{% include "../.gitbook/includes/a.md" %}\n\nTo reuse it, write:\n\n```\n{% include "../.gitbook/includes/a.md" %}\n```\n\nor `{% include "b.md" %}` inline.\n';
    const seen: string[] = [];
    const out = rewriteIncludes(md, (t) => (seen.push(t), 'ID'));
    expect(seen).toEqual(['../.gitbook/includes/a.md']);
    expect(out).toBe(md.replace('{% include "../.gitbook/includes/a.md" %}\n\nTo', '{% include "ID" %}\n\nTo'));
    expect(rewriteIncludes('no tags', () => 'x')).toBe('no tags');
  });
});
