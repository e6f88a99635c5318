import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { parseGfm } from './gfm.ts';

describe('parseGfm', () => {
  it('gives the GFM tree, with or without GFM syntax in the text', () => {
    const gfm = unified().use(remarkParse).use(remarkGfm);
    const texts = [
      '# Contents\n\n* [Intro](README.md)\n  * [*Setup* `npm`](setup.md "t")\n* [Site](https://example.com)\n\n## Part\n\n1. [A](<a b.md>)\n\n```\n~~ | www.x\n```\n',
      '* [~~Old~~ API](old.md)\n',
      '* www.example.com and mail@example.com\n',
      '* [ ] [Task](task.md)\n',
      '| a | b |\n|---|---|\n| [c](c.md) | d |\n',
      'Note[^1]\n\n[^1]: [e](e.md)\n',
    ];
    for (const text of texts) expect(parseGfm(text)).toEqual(gfm.parse(text));
  });
});
