import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromMarkdown, parseMarkdown, toMarkdown, type JSONDocument } from '../src/index.ts';
import { schemaErrors } from './schema.ts';

const fixtures = new URL('./fixtures/', import.meta.url);
const names = readdirSync(fixtures).filter((name) => name.endsWith('.md'));
const read = (name: string) => readFileSync(new URL(name, fixtures), 'utf8');

describe('markdown → document → markdown', () => {
  it.each(names)('%s comes back byte for byte and validates against GitBook’s schema', (name) => {
    const markdown = read(name);
    const { document, frontmatter } = parseMarkdown(markdown);
    expect(schemaErrors(document)).toEqual([]);
    expect(toMarkdown(document, { frontmatter })).toBe(markdown);
  });

  it('a page mixing every block comes back byte for byte', () => {
    const markdown = names
      .filter((name) => name !== 'frontmatter.md')
      .map(read)
      .join('\n');
    const document = fromMarkdown(markdown);
    expect(schemaErrors(document)).toEqual([]);
    expect(toMarkdown(document)).toBe(markdown);
    // and again: the output is a fixed point
    expect(toMarkdown(fromMarkdown(toMarkdown(document)))).toBe(markdown);
  });

  it('an organization spec operation reads without its closing tag too, and one missing an attribute stays text', () => {
    const open = '{% openapi-operation spec="billing" path="/invoices" method="post" %}\n';
    const document = fromMarkdown(`${open}\nAfter.\n`);
    expect(schemaErrors(document)).toEqual([]);
    expect(document.nodes.map((n) => n.type)).toEqual(['openapi-operation', 'paragraph']);
    expect(toMarkdown(document)).toBe(`${open}{% endopenapi-operation %}\n\nAfter.\n`);
    expect(fromMarkdown('{% openapi-operation spec="billing" path="/invoices" %}\n').nodes.map((n) => n.type)).toEqual(['paragraph']);
    // In a hint, where GitBook allows no operation, its method and path stay as code.
    expect(toMarkdown(fromMarkdown(`{% hint style="info" %}\n${open}{% endhint %}\n`))).toBe('{% hint style="info" %}\n`POST /invoices`\n{% endhint %}\n');
  });

  it('blocks nest as GitBook writes them: hints in tabs, code in lists, figures in expandables', () => {
    const markdown = [
      '{% tabs %}',
      '{% tab title="A" %}',
      '{% hint style="info" %}',
      'Inside a tab.',
      '{% endhint %}',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '1. Step one',
      '',
      '   ```sh',
      '   make',
      '   ```',
      '2. Step two',
      '',
      '<details>',
      '',
      '<summary>More</summary>',
      '',
      '<figure><img src="a.png" alt=""><figcaption><p>A</p></figcaption></figure>',
      '',
      '</details>',
      '',
    ].join('\n');
    const document = fromMarkdown(markdown);
    expect(schemaErrors(document)).toEqual([]);
    expect(document.nodes.map((n) => n.type)).toEqual(['tabs', 'list-ordered', 'expandable']);
    const tab = document.nodes[0] as Extract<JSONDocument['nodes'][number], { type: 'tabs' }>;
    expect(tab.nodes[0]!.data.title).toBe('A');
    expect(tab.nodes[0]!.nodes[0]!.type).toBe('hint');
  });
});

describe('the document model', () => {
  it('reads each GitBook block into the spec’s shape', () => {
    const doc = fromMarkdown(read('code.md') + '\n' + read('hint.md') + '\n' + read('images.md') + '\n' + read('refs.md'));
    const types = doc.nodes.map((n) => n.type);
    expect(types).toEqual(['code', 'code', 'code', 'hint', 'hint', 'hint', 'hint', 'images', 'images', 'images', 'images', 'paragraph', 'content-ref', 'content-ref', 'paragraph']);
    const titled = doc.nodes[1] as Extract<JSONDocument['nodes'][number], { type: 'code' }>;
    expect(titled.data).toEqual({ syntax: 'bash', title: 'install.sh', overflow: 'wrap', lineNumbers: true });
    expect(titled.nodes).toEqual([
      { object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'npm install quire', marks: [] }] }] },
    ]);
    const figure = doc.nodes[8] as Extract<JSONDocument['nodes'][number], { type: 'images' }>;
    expect(figure.nodes[0]!.data).toEqual({ ref: { kind: 'url', url: '.gitbook/assets/diagram.png' }, alt: 'Diagram' });
    expect(figure.nodes[0]!.fragments[0]!.nodes[0]!.nodes).toEqual([{ object: 'text', leaves: [{ object: 'leaf', text: 'The architecture & its parts', marks: [] }] }]);
    const mention = (doc.nodes[14] as Extract<JSONDocument['nodes'][number], { type: 'paragraph' }>).nodes[1];
    expect(mention).toEqual({ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'url', url: 'getting-started/quickstart.md' } } });
  });

  it('resolves destinations through resolveLink and writes them back through refToUrl', () => {
    const markdown = read('refs.md') + '\n' + read('files.md') + '\n![](.gitbook/assets/x.png)\n';
    const pages: Record<string, string> = { 'getting-started/quickstart.md': 'page-1', 'api/': 'page-2' };
    const document = fromMarkdown(markdown, {
      resolveLink: (url, context) => {
        if (pages[url]) return { kind: 'page', page: pages[url] };
        if (url.startsWith('.gitbook/assets/')) return { kind: 'file', file: `file:${url.slice(16)}` };
        return context === 'image' ? { kind: 'page', page: 'not allowed for an image' } : undefined;
      },
    });
    expect(schemaErrors(document)).toEqual([]);
    expect(document.nodes[0]).toEqual({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'page-1' } } });
    expect(document.nodes[3]).toMatchObject({ type: 'file', data: { ref: { kind: 'file', file: 'file:report.pdf' } } });
    const back = toMarkdown(document, {
      refToUrl: (ref) => {
        if (ref.kind === 'page') return Object.keys(pages).find((k) => pages[k] === ref.page);
        if (ref.kind === 'file') return `.gitbook/assets/${ref.file.slice(5)}`;
        return undefined;
      },
    });
    expect(back).toBe(markdown);
  });

  it('turns blocks a place does not allow into ones it does, keeping the text', () => {
    const document = fromMarkdown(['{% hint style="info" %}', '```js', 'let x;', '```', '', '![pic](p.png)', '{% endhint %}', ''].join('\n'));
    expect(schemaErrors(document)).toEqual([]);
    const hint = document.nodes[0] as Extract<JSONDocument['nodes'][number], { type: 'hint' }>;
    expect(hint.nodes.map((n) => n.type)).toEqual(['paragraph', 'paragraph']);
    expect(hint.nodes[0]).toMatchObject({ nodes: [{ leaves: [{ text: 'let x;', marks: [{ type: 'code' }] }] }] });
    expect(hint.nodes[1]).toMatchObject({ nodes: [{ type: 'inline-image', data: { ref: { url: 'p.png' }, caption: 'pic' } }] });
  });

  it('keeps front matter aside', () => {
    const { document, frontmatter } = parseMarkdown(read('frontmatter.md'));
    expect(frontmatter).toBe('description: A page with front matter.\nicon: book');
    expect(document.data).toEqual({});
    expect(document.nodes).toHaveLength(1);
  });

  it('the schema check itself rejects what GitBook would', () => {
    const bad = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'hint', data: { style: 'purple' }, nodes: [] }] } as unknown as JSONDocument;
    expect(schemaErrors(bad)).not.toEqual([]);
    const imageInHint = fromMarkdown('![a](b.png)');
    const hint = { object: 'block', type: 'hint', data: { style: 'info' }, nodes: imageInHint.nodes } as unknown as JSONDocument['nodes'][number];
    expect(schemaErrors({ object: 'document', data: {}, nodes: [hint] })).not.toEqual([]);
  });

  it('writes an empty document as an empty string', () => {
    expect(toMarkdown(fromMarkdown(''))).toBe('');
    expect(fromMarkdown('')).toEqual({ object: 'document', data: {}, nodes: [] });
  });
});

describe('odd markdown never throws and always validates', () => {
  const odd = [
    '{% hint style="info" %}\nnever closed',
    '{% endhint %}\n\n{% endtabs %}',
    '{% tabs %}\ntext outside a tab\n{% tab title="x" %}\nin\n{% endtab %}\n{% endtabs %}',
    '{% code title="x" %}\nnot code\n{% endcode %}',
    '{% unknown-tag a="1" %}\n\n{% %}\n\n{%%}',
    '{% hint style="nope" %}\nx\n{% endhint %}',
    '<details>\n\n<summary>unclosed',
    '<details><summary>inline</summary>\n\nbody\n\n</details>',
    '<figure><figcaption>no image</figcaption></figure>',
    '<table><tr><td>no head</td></tr></table>',
    '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td><table><thead><tr><th>n</th></tr></thead></table></td></tr></tbody></table>',
    '<script>alert(1)</script>',
    '#### deep heading\n\n###### deeper',
    '- a\n\n\n- b\n\n  > quote\n  > > nested\n\n  | t |\n  | - |\n  | 1 |',
    '[ref]\n\n[ref]: https://example.com\n\n![img ref][ref] [missing][nope]',
    '$$\nunclosed math',
    '<mark style="color:notacolor;">x</mark> <mark>y</mark> </mark> <kbd>',
    '[^1] footnote\n\n[^1]: the note',
    '\u0000\uFFFD\uD800 odd characters',
    '*'.repeat(5000) + '_'.repeat(5000),
    '> {% hint style="info" %}\n> in a quote\n> {% endhint %}',
    '* {% tabs %}\n  {% tab title="in a list" %}\n  x\n  {% endtab %}\n  {% endtabs %}',
    '---\nfront: matter\n',
    '| a |\n| - |\n| <details><summary>x</summary></details> |',
  ];
  it.each(odd.map((m) => [m.slice(0, 40), m]))('%j', (_, markdown) => {
    const document = fromMarkdown(markdown);
    expect(schemaErrors(document)).toEqual([]);
    const again = fromMarkdown(toMarkdown(document));
    expect(schemaErrors(again)).toEqual([]);
  });

  // Each of these took minutes (tags paired by scanning forward from every opener) or overflowed
  // the stack (one recursion per nesting level) before; now about a second each on a quiet core,
  // and within 30 s on a CI machine busy with other suites.
  it('thousands of unclosed tags and `<details>` are paired up in one pass', () => {
    for (const markdown of ['{% hint style="info" %}\n'.repeat(20_000), '<details>\n\n'.repeat(20_000), '{% tabs %}\n' + '{% tab title="a" %}\n'.repeat(20_000)]) {
      expect(fromMarkdown(markdown).nodes.length).toBeGreaterThan(0);
    }
  }, 30_000);

  it('containers nested thousands deep stay text past 100 levels, and nothing is dropped', () => {
    const hints = fromMarkdown('{% hint style="info" %}\n'.repeat(3000) + 'core\n' + '{% endhint %}\n'.repeat(3000));
    expect(JSON.stringify(hints)).toContain('core');
    const details = fromMarkdown('<details>\n\n'.repeat(3000) + 'core\n\n' + '</details>\n\n'.repeat(3000));
    expect(JSON.stringify(details)).toContain('core');
    // markdown-it's own nesting guard (maxNesting) is raised so that deep quotes and lists keep their text.
    expect(JSON.stringify(fromMarkdown('> '.repeat(50) + 'quoted\n'))).toContain('quoted');
    expect(JSON.stringify(fromMarkdown(Array.from({ length: 30 }, (_, i) => '  '.repeat(i) + `* item ${i}`).join('\n')))).toContain('item 29');
  }, 30_000);
});
