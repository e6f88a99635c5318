import { describe, expect, it } from 'vitest';
import { fromMarkdown, parseMarkdown, toMarkdown, type JSONDocument } from '../src/index.ts';

// markdown-it tokenizes the markdown (README.md, "Parsing"). These are the readings where it
// differs from micromark, which this package used before, and the ones adjusted to match it.

type Block = JSONDocument['nodes'][number];
const paragraphText = (block: Block | undefined) =>
  block?.type === 'paragraph' ? block.nodes.flatMap((n) => (n.object === 'text' ? n.leaves.map((l) => l.text) : [])).join('') : undefined;
const only = (markdown: string) => {
  const { nodes } = fromMarkdown(markdown);
  expect(nodes).toHaveLength(1);
  return nodes[0]!;
};

describe('known deviations from micromark', () => {
  it('a single tilde is text: strikethrough takes `~~`', () => {
    const block = only('~one~ and ~~two~~\n');
    expect(block).toMatchObject({
      type: 'paragraph',
      nodes: [
        {
          object: 'text',
          leaves: [
            { text: '~one~ and ', marks: [] },
            { text: 'two', marks: [{ type: 'strikethrough' }] },
          ],
        },
      ],
    });
  });

  it('CRLF line endings are read as LF', () => {
    expect(paragraphText(only('a\r\nb\r\n'))).toBe('a\nb');
    const code = only('```\nx\r\ny\r\n```\r\n');
    expect(code).toMatchObject({ type: 'code', nodes: [{ nodes: [{ leaves: [{ text: 'x' }] }] }, { nodes: [{ leaves: [{ text: 'y' }] }] }] });
  });

  it('a task check needs a space or no-break space after `]`, on the same line', () => {
    expect(only('* [ ]\ttab\n').type).toBe('list-unordered');
    expect(only('* [ ]\n  next line\n').type).toBe('list-unordered');
    expect(only('* [x]\u00a0done\n')).toMatchObject({ type: 'list-tasks', nodes: [{ data: { checked: true } }] });
  });

  it('a `[x]` with a definition of `x` is a link, not a task check', () => {
    const list = only('* [x] task\n\n[x]: /u\n');
    expect(list).toMatchObject({ type: 'list-tasks', nodes: [{ nodes: [{ type: 'paragraph', nodes: [{ type: 'link', data: { ref: { url: '/u' } } }, {}] }] }] });
  });

  it('a block formula ends at the first line ending in `$$`', () => {
    expect(only('$$\nx = 1 $$\n')).toEqual({ object: 'block', type: 'math', isVoid: true, data: { formula: 'x = 1 ' } });
  });

  it('an unclosed fence in a list item keeps the blank lines before the item ends', () => {
    const list = fromMarkdown('* ```\n  x\n\n\ny\n').nodes[0] as Extract<Block, { type: 'list-unordered' }>;
    const code = list.nodes[0]!.nodes[0] as Extract<Block, { type: 'code' }>;
    expect(code.nodes.map((line) => line.nodes.map((n) => (n.object === 'text' ? n.leaves[0]!.text : '')).join(''))).toEqual(['x', '', '']);
  });

  it('front matter closes at the first line of three or more dashes', () => {
    const parsed = parseMarkdown('---\ntitle: x\n----\nbody\n\n---\n');
    expect(parsed.frontmatter).toBe('title: x');
    expect(parsed.document.nodes.map((n) => n.type)).toEqual(['paragraph', 'divider']);
    expect(paragraphText(parsed.document.nodes[0])).toBe('body');
  });
});

describe('readings kept as micromark gave them', () => {
  it('code spans and inline formulas keep their line endings, so wrapped text comes back as written', () => {
    const markdown = 'Run `npm\ninstall` and $$a +\nb$$ here.\n';
    const block = only(markdown);
    expect(block).toMatchObject({
      nodes: [{ leaves: [{ text: 'Run ' }, { text: 'npm\ninstall', marks: [{ type: 'code' }] }, { text: ' and ' }] }, { type: 'inline-math', data: { formula: 'a +\nb' } }, {}],
    });
    expect(toMarkdown(fromMarkdown(markdown))).toBe(markdown);
  });

  it('one space of padding each side of a code span or an inline formula goes', () => {
    expect(only('` a ` $$ b $$\n')).toMatchObject({
      nodes: [{ leaves: [{ text: 'a', marks: [{ type: 'code' }] }, { text: ' ' }] }, { type: 'inline-math', data: { formula: 'b' } }],
    });
  });

  it('destinations stay as written (no percent-encoding, no punycode, no scheme filter)', () => {
    const links = fromMarkdown('[a](https://例え.jp/naïve[1]) <https://例え.jp> [b](javascript:alert(1))\n').nodes[0]!;
    const urls = (links as Extract<Block, { type: 'paragraph' }>).nodes.flatMap((n) =>
      n.object === 'inline' && n.type === 'link' && n.data.ref.kind === 'url' ? [n.data.ref.url] : [],
    );
    expect(urls).toEqual(['https://例え.jp/naïve[1]', 'https://例え.jp', 'javascript:alert(1)']);
  });

  it('a `$$` line with meta opens a block formula without it; `$$x$$` alone is inline', () => {
    expect(only('$$ meta\nx\n$$\n')).toEqual({ object: 'block', type: 'math', isVoid: true, data: { formula: 'x' } });
    expect(only('$$x$$\n')).toMatchObject({ type: 'paragraph', nodes: [{ type: 'inline-math', data: { formula: 'x' } }] });
  });

  it('a GitBook tag line is never a table header nor setext heading text', () => {
    const { nodes } = fromMarkdown('{% hint style="info" %}\n---\n{% endhint %}\n\n{% hint style="info" %}\n| a |\n| - |\n{% endhint %}\n');
    expect(nodes.map((n) => n.type)).toEqual(['hint', 'hint']);
    expect((nodes[0] as Extract<Block, { type: 'hint' }>).nodes[0]!.type).toBe('divider');
  });

  it('an unclosed `---` at the top is a divider, not front matter holding the page', () => {
    const parsed = parseMarkdown('---\ntitle: x\n');
    expect(parsed.frontmatter).toBeUndefined();
    expect(parsed.document.nodes.map((n) => n.type)).toEqual(['divider', 'paragraph']);
  });

  it('an HTML block keeps its indentation; a fence’s info is unescaped and trimmed', () => {
    expect(paragraphText(only('  <div>x</div>\n'))).toBe('  <div>x</div>');
    expect(only('``` js title\nx\n```\n')).toMatchObject({ type: 'code', data: { syntax: 'js' } });
  });
});
