import { describe, expect, it } from 'vitest';
import { fromMarkdown, toHtml, toMarkdown, type DocumentBlockTable, type JSONDocument } from '../src/index.ts';
import { schemaErrors } from './schema.ts';

// The inline HTML GitBook writes in paragraphs and pipe table cells, read into the model (marks,
// links, paragraphs and lists of a cell), and only that: other tags and attributes stay text or
// are dropped. The fixtures (table-html-cells.md, html-table.md) hold the round trips.

type Block = JSONDocument['nodes'][number];
const only = (markdown: string): Block => {
  const { nodes } = fromMarkdown(markdown);
  expect(nodes).toHaveLength(1);
  return nodes[0]!;
};
/** The blocks of each body cell of the document's only table, row by row. */
const cells = (markdown: string) => {
  const table = only(markdown) as DocumentBlockTable;
  return table.fragments.map((f) => f.nodes);
};
const row = (...values: string[]) => `| ${values.map((_, i) => `h${i}`).join(' | ')} |\n|${values.map(() => ' - |').join('')}\n| ${values.join(' | ')} |\n`;

describe('inline HTML in a paragraph', () => {
  it('reads the tags GitBook writes as marks and links, and keeps no attribute but their meaning', () => {
    expect(only('<strong>b</strong> <em>i</em> <code>c</code> <s>s</s> <a href="https://x.test/" title="t" onclick="alert(1)">l</a> <mark>m</mark>\n')).toEqual({
      object: 'block',
      type: 'paragraph',
      nodes: [
        {
          object: 'text',
          leaves: [
            { object: 'leaf', text: 'b', marks: [{ object: 'mark', type: 'bold' }] },
            { object: 'leaf', text: ' ', marks: [] },
            { object: 'leaf', text: 'i', marks: [{ object: 'mark', type: 'italic' }] },
            { object: 'leaf', text: ' ', marks: [] },
            { object: 'leaf', text: 'c', marks: [{ object: 'mark', type: 'code' }] },
            { object: 'leaf', text: ' ', marks: [] },
            { object: 'leaf', text: 's', marks: [{ object: 'mark', type: 'strikethrough' }] },
            { object: 'leaf', text: ' ', marks: [] },
          ],
        },
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://x.test/' } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'l', marks: [] }] }] },
        // A `<mark>` without a color GitBook has: its text, plain.
        { object: 'text', leaves: [{ object: 'leaf', text: ' m', marks: [] }] },
      ],
    });
  });

  it('writes them back as markdown where markdown says them', () => {
    expect(toMarkdown(fromMarkdown('<strong>b</strong> and <a href="https://x.test/">l<sup>2</sup></a>\n'))).toBe('**b** and [l<sup>2</sup>](https://x.test/)\n');
  });

  it('a tag left open marks the rest; a link inside a link gives its text; an anchor is no link', () => {
    const doc = fromMarkdown('a <sup>b <a href="/x">c <a href="/y">d</a> e</a> f\n\nP <a href="#x" id="x">t</a>\n');
    expect(schemaErrors(doc)).toEqual([]);
    expect(toHtml(doc)).toBe('<p>a <sup>b </sup><a href="/x"><sup>c d e</sup></a><sup> f</sup></p><p>P &#x3C;a href="#x" id="x">t&#x3C;/a></p>');
  });

  it('other tags, and closing tags with nothing open, stay visible text', () => {
    const out = toHtml(fromMarkdown('x <span class="k">y</span> </strong> <p>z</p>\n'));
    expect(out).toBe('<p>x &#x3C;span class="k">y&#x3C;/span> &#x3C;/strong> &#x3C;p>z&#x3C;/p></p>');
  });
});

describe('inline HTML in a pipe table cell', () => {
  it('reads `<p>` and lists as the cell’s blocks, inline content between as a paragraph', () => {
    const [cell] = cells(row('lead<ul><li>a<ol start="3"><li>b</li></ol></li></ul><p>end</p>'));
    expect(cell!.map((b) => b.type)).toEqual(['paragraph', 'list-unordered', 'paragraph']);
    const list = cell![1] as Extract<Block, { type: 'list-unordered' }>;
    expect(list.nodes[0]!.nodes.map((b) => b.type)).toEqual(['paragraph', 'list-ordered']);
    expect((list.nodes[0]!.nodes[1] as Extract<Block, { type: 'list-ordered' }>).data).toEqual({ start: 3 });
  });

  it('closes what HTML parsers close: a paragraph at the next block, an item at the next item', () => {
    const [cell] = cells(row('<p>a<p>b<ul><li>c<li>d</ul>'));
    expect(cell!.map((b) => b.type)).toEqual(['paragraph', 'paragraph', 'list-unordered']);
    expect((cell![2] as Extract<Block, { type: 'list-unordered' }>).nodes).toHaveLength(2);
  });

  it('a cell of one line stays markdown; a paragraph with line breaks is `<p>` and tags, as GitBook writes it', () => {
    const markdown =
      '| a                                                     |\n| ----------------------------------------------------- |\n| **x** and `y`                                         |\n| <p><strong>x</strong><br><br><code>y</code> and z</p> |\n';
    const [line, broken] = cells(markdown);
    expect(line!.map((b) => b.type)).toEqual(['paragraph']);
    expect(broken!.map((b) => b.type)).toEqual(['paragraph']);
    expect(toMarkdown(fromMarkdown(markdown))).toBe(markdown);
  });

  it('a `|` in a cell’s HTML is escaped so that it does not end the cell', () => {
    const markdown = row('<p>a \\| b</p><p><a href="https://x.test/?q=a&#x7C;b">c</a></p>');
    const doc = fromMarkdown(markdown);
    expect(toHtml(doc)).toContain('<td><p>a | b</p><p><a href="https://x.test/?q=a|b">c</a></p></td>');
    expect(toMarkdown(doc)).toContain('| <p>a \\| b</p><p><a href="https://x.test/?q=a&#x7C;b">c</a></p> |');
  });

  it('a cell holding a code block makes the table GitBook’s HTML table', () => {
    const doc = fromMarkdown('<table><thead><tr><th>a</th></tr></thead><tbody><tr><td><p>x</p><pre><code>y</code></pre></td></tr></tbody></table>\n');
    expect(toMarkdown(doc)).toBe('<table><thead><tr><th>a</th></tr></thead><tbody><tr><td><p>x</p><pre><code>y</code></pre></td></tr></tbody></table>\n');
  });

  it('keeps no markup of an attacker’s: script as text, no handler, style or script URL', () => {
    const out = toHtml(
      fromMarkdown(
        row(
          '<p style="color:red" onclick="alert(1)">x</p><script>alert(1)</script>',
          '<ul><li onmouseover="alert(1)"><a href="javascript:alert(1)">y</a><img src="x" onerror="alert(1)"></li></ul>',
        ),
      ),
    );
    expect(out).toContain('<td><p>x</p><p>&#x3C;script>alert(1)&#x3C;/script></p></td>');
    expect(out).toContain('<td><ul><li><p><a>y</a><img src="x" alt="" loading="lazy"></p></li></ul></td>');
  });
});
