import { readFileSync } from 'node:fs';
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { describe, expect, it } from 'vitest';
import { fromMarkdown, paragraph, text, toHtml, toMarkdown, type JSONDocument } from '../src/index.ts';

const read = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const html = (markdown: string, options?: Parameters<typeof toHtml>[1]) => toHtml(fromMarkdown(markdown), options);

describe('toHtml renders every block', () => {
  it('paragraphs and marks', () => {
    expect(html(read('paragraph.md'))).toContain(
      '<p>Plain text with <strong>bold</strong>, <em>italic</em>, <del>struck</del>, <code>code</code>, <strong>bold <em>and italic</em></strong> and a <a href="https://example.com/docs">link</a>.</p>',
    );
    expect(html(read('paragraph.md'))).toContain('<p>A line with a hard break<br>and a trailing space </p>');
    expect(html(read('marks.md'))).toBe(
      '<p>Some <mark class="color-red">red text</mark>, a <mark class="bg-yellow">highlight</mark>, <mark class="color-info bg-warning">both</mark>, <kbd>Ctrl</kbd>, x<sup>2</sup> and H<sub>2</sub>O.</p>',
    );
  });

  it('headings with GitBook anchors, unique within the page', () => {
    expect(html(read('headings.md'))).toBe(
      '<h1 id="title">Title</h1><h2 id="section">Section</h2><h3 id="sub-section">Sub-section</h3><h2 id="custom-anchor">Explicit anchor</h2>',
    );
    expect(html('## Café Crème\n\n## Café Crème\n\n## Привет мир\n\n## 你好')).toBe(
      '<h2 id="cafe-creme">Café Crème</h2><h2 id="cafe-creme-1">Café Crème</h2><h2 id="privet-mir">Привет мир</h2><h2 id="ni-hao">你好</h2>',
    );
  });

  it('lists and task lists', () => {
    expect(html('* a\n* b\n')).toBe('<ul><li><p>a</p></li><li><p>b</p></li></ul>');
    expect(html('3. c\n4. d\n')).toBe('<ol start="3"><li><p>c</p></li><li><p>d</p></li></ol>');
    expect(html(read('tasks.md'))).toBe(
      '<ul class="task-list"><li class="task-list-item"><input type="checkbox" disabled> <p>To do</p></li><li class="task-list-item"><input type="checkbox" disabled checked> <p>Done</p></li></ul>',
    );
  });

  it('quotes, dividers, hints', () => {
    expect(html(read('quote.md'))).toBe('<blockquote><p>A quote with <strong>marks</strong>.</p><p>Two paragraphs.</p></blockquote>');
    expect(html(read('divider.md'))).toBe('<p>Above</p><hr><p>Below</p>');
    const hints = html(read('hint.md'));
    for (const style of ['info', 'warning', 'danger', 'success']) expect(hints).toContain(`<div class="hint hint-${style}" role="note">`);
  });

  it('code blocks with title, syntax and line numbers; highlighting on request', () => {
    const out = html(read('code.md'));
    expect(out).toContain('<figure class="code-block" data-syntax="js"><pre><code class="language-js">const a = 1;\n\nconsole.log(a);</code></pre></figure>');
    expect(out).toContain(
      '<figure class="code-block line-numbers wrap" data-syntax="bash"><figcaption class="code-title">install.sh</figcaption><pre><code class="language-bash"><span class="code-line">npm install quire</span></code></pre></figure>',
    );
    expect(out).toContain('<figure class="code-block"><pre><code>no language</code></pre></figure>');
    const highlighted = html('```js\nconst a = "x";\n```\n', { highlight: true });
    expect(highlighted).toContain('<span class="hljs-keyword">const</span> a = <span class="hljs-string">"x"</span>;');
  });

  it('tabs, expandables, images, files, embeds, content references', () => {
    expect(html(read('tabs.md'))).toContain(
      '<div class="tabs"><section class="tabs-item"><div class="tabs-item-title">macOS</div><p>Run <code>brew install quire</code>.</p></section>',
    );
    expect(html(read('expandable.md'))).toBe(
      '<details class="expandable"><summary>Click to <strong>expand</strong> me</summary><p>Hidden text.</p><figure class="code-block" data-syntax="json"><pre><code class="language-json">{"a": 1}</code></pre></figure></details>',
    );
    const images = html(read('images.md'));
    expect(images).toContain('<div class="images"><figure class="image"><img src=".gitbook/assets/plain.png" alt="An image" loading="lazy"></figure></div>');
    expect(images).toContain('<figcaption>The architecture &#x26; its parts</figcaption>');
    expect(images).toContain('<img src="https://example.com/a.png?x=1&#x26;y=2" alt="" loading="lazy" width="300">');
    expect(images).toContain('<div class="images images-left">');
    expect(images).toContain('<img src=".gitbook/assets/line.png" alt="" loading="lazy" class="inline-image-line">');
    expect(html(read('files.md'))).toBe(
      '<div class="file"><a href=".gitbook/assets/report.pdf" download>report.pdf</a></div><div class="file"><a href=".gitbook/assets/guide.pdf" download>The user guide</a></div>',
    );
    expect(html(read('embed.md'))).toContain('<div class="embed"><a href="https://github.com/quire/quire" rel="noopener noreferrer">Our repository</a></div>');
    expect(html(read('refs.md'))).toContain('<div class="content-ref"><a href="getting-started/quickstart.md">quickstart.md</a></div>');
    expect(html(read('refs.md'))).toContain('<a href="getting-started/quickstart.md" class="mention">quickstart.md</a>');
  });

  it('mentions of members by the name the caller gives, and HTML in a name is text', () => {
    const mention = (user: string) => ({ object: 'inline' as const, type: 'mention' as const, isVoid: true as const, data: { ref: { kind: 'user' as const, user } } });
    const document: JSONDocument = { object: 'document', data: {}, nodes: [paragraph([mention('u1'), text(' and '), mention('u2'), mention('gone')])] };
    const memberNames = new Map([
      ['u1', 'Ada Lovelace'],
      ['u2', '<b>Eve</b>'],
    ]);
    expect(toHtml(document, { memberNames })).toBe(
      '<p><span class="mention">Ada Lovelace</span> and <span class="mention">&#x3C;b>Eve&#x3C;/b></span><span class="mention"></span></p>',
    );
  });

  it('OpenAPI operations', () => {
    expect(html(read('openapi.md'))).toBe(
      '<div class="openapi"><a href=".gitbook/assets/petstore.yaml"><code>GET</code> /pets/{petId}</a></div><div class="openapi"><a href="https://example.com/openapi.json"><code>POST</code> /users</a></div>',
    );
  });

  it('an operation of an organization spec: its method and path, or the caller’s rendering put in after sanitizing', () => {
    const document = fromMarkdown(read('openapi-operation.md'));
    expect(document.nodes[0]).toEqual({
      object: 'block',
      type: 'openapi-operation',
      isVoid: true,
      data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets/{petId}', method: 'get' },
    });
    expect(toHtml(document)).toBe('<div class="openapi"><span><code>GET</code> /pets/{petId}</span></div>');
    const seen: string[] = [];
    const out = toHtml(fromMarkdown(`${read('openapi.md')}\n$$x^2$$\n\n${read('openapi-operation.md')}`), {
      openApi: (block) => (seen.push(block.type), block.type === 'swagger' && block.data.method === 'post' ? undefined : `<section data-op="${block.data.path}"></section>`),
    });
    expect(seen).toEqual(['swagger', 'swagger', 'openapi-operation']);
    expect(out).toMatch(
      /^<div class="openapi"><section data-op="\/pets\/\{petId\}"><\/section><\/div><div class="openapi"><a href="https:\/\/example.com\/openapi.json"><code>POST<\/code> \/users<\/a><\/div><p><span class="math math-inline"><span class="katex">.*<\/p><div class="openapi"><section data-op="\/pets\/\{petId\}"><\/section><\/div>$/s,
    );
  });

  it('tables and cards', () => {
    expect(html(read('table.md'))).toBe(
      '<div class="table"><table><thead><tr><th>Name</th><th align="center">Value</th><th align="right">Notes</th></tr></thead><tbody><tr><td><p>alpha</p></td><td align="center"><p>1</p></td><td align="right"><p><strong>first</strong> entry</p></td></tr><tr><td><p>beta</p></td><td align="center"><p>2</p></td><td align="right"><p><code>code</code></p></td></tr></tbody></table></div>',
    );
    const cards = html(read('cards.md'));
    expect(cards).toContain('<div class="cards"><div class="card"><div class="card-field"><p><strong>Quickstart</strong></p></div>');
    expect(html(read('html-table.md'))).toContain('<table><tbody><tr><td><p>a</p></td><td><p>b</p></td></tr></tbody></table>');
  });

  it('table cells holding the inline HTML GitBook writes, as GitBook shows them', () => {
    // GitBook (GitbookIO/gitbook, DocumentView/Table/RecordColumnValue.tsx) renders a text cell's
    // fragment with its Blocks component: each `<p>` of the cell a paragraph of its own, `<code>`
    // its inline code, a list a `<ul>` of items holding their paragraphs, `<br>` a line break;
    // never the tags as text. Quire shows the same blocks with its own elements.
    const cells = html(read('table-html-cells.md'));
    expect(cells).toContain("<td><p>Either one of these strings:</p><p><code>'fileManager'</code> - the file manager</p><p><code>'editor'</code> - the editor</p></td>");
    expect(cells).toContain(
      '<td><p>One of:</p><ul><li><p><code>read</code> - <strong>read</strong> only</p></li><li><p><code>write</code> - see <a href="https://example.com/modes">modes</a></p></li></ul></td>',
    );
    expect(cells).toContain('<td><ol><li><p>First</p></li><li><p>Second, <em>then</em> <mark class="color-red">stop</mark></p></li></ol></td>');
    expect(cells).toContain('<td><p>In MB, at most 10<sup>3</sup>, like H<sub>2</sub>O.<br><br><strong>- Default:</strong> 64</p></td>');
    expect(cells).not.toContain('&#x3C;');
    expect(html(read('html-table.md'))).toContain('<td><p>One of:</p><ul><li><p>read</p></li><li><p>write, <em>then</em> read</p></li></ul></td>');
  });

  it('math with KaTeX, or as its source', () => {
    expect(html(read('math.md'))).toContain('<div class="math math-display"><span class="katex-display"><span class="katex">');
    expect(html(read('math.md'), { math: 'source' })).toBe(
      '<div class="math math-display"><code>E = mc^2</code></div><p>Inline math <span class="math math-inline"><code>a^2 + b^2 = c^2</code></span> in a sentence, and a price of $5.</p>',
    );
  });

  it('resolves refs through refToUrl', () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          nodes: [
            { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'p1' } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Page', marks: [] }] }] },
          ],
        },
      ],
    };
    expect(toHtml(document, { refToUrl: (ref) => (ref.kind === 'page' ? `/s/docs/${ref.page}` : undefined) })).toBe('<p><a href="/s/docs/p1">Page</a></p>');
    expect(toHtml(document)).toBe('<p><a>Page</a></p>');
  });

  it('emoji as their character, as markdown writes them', () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f44b' } }] }],
    };
    expect(toHtml(document)).toBe('<p>👋</p>');
    expect(toMarkdown(document)).toBe('👋\n');
  });

  it('emoji of several code points (a flag) whole, and a code that is none as written', () => {
    const emoji = (code: string) => ({ object: 'inline' as const, type: 'emoji' as const, isVoid: true as const, data: { code } });
    const document: JSONDocument = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [emoji('1f1eb-1f1f7'), emoji('nope')] }] };
    expect(toHtml(document)).toBe('<p>🇫🇷nope</p>');
    expect(toMarkdown(document)).toBe('🇫🇷nope\n');
  });
});

/** What a browser would build from the HTML that could run script: elements, handlers, URLs. */
function dangers(out: string): string[] {
  const found: string[] = [];
  // KaTeX's own markup sets inline styles (sizes and offsets it computes); content cannot.
  const visit = (node: Root | Element, inKatex = false) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      const katex = inKatex || (Array.isArray(child.properties.className) && child.properties.className.includes('katex'));
      if (['script', 'iframe', 'object', 'embed', 'style', 'link', 'meta', 'base', 'form'].includes(child.tagName)) found.push(`<${child.tagName}>`);
      for (const [name, value] of Object.entries(child.properties)) {
        if (/^on/i.test(name)) found.push(`${child.tagName}[${name}]`);
        if (name === 'style' && !katex) found.push(`${child.tagName}[style]`);
        if (['href', 'src', 'action', 'formAction', 'srcSet'].includes(name) && /^\s*(javascript|data|vbscript):/i.test(String(value)))
          found.push(`${child.tagName}[${name}=${value}]`);
      }
      visit(child, katex);
    }
  };
  visit(fromHtml(out, { fragment: true }));
  return found;
}

describe('toHtml never lets script through', () => {
  const attacks: [string, string][] = [
    ['script tag', '<script>alert(1)</script>\n\nok <script>alert(2)</script>'],
    ['javascript: link', '[click](javascript:alert(1)) [x](JaVaScRiPt:alert(1)) [y](  javascript:alert(1))'],
    ['data: and vbscript: links', '[a](data:text/html;base64,PHNjcmlwdD4=) [b](vbscript:msgbox(1))'],
    ['javascript: image', '![x](javascript:alert(1))\n\n<figure><img src="javascript:alert(1)" alt=""><figcaption></figcaption></figure>'],
    ['onerror attribute', '<img src="x" onerror="alert(1)">\n\n<figure><img src="x" alt="" onerror="alert(1)"><figcaption></figcaption></figure>'],
    ['html in a code title', '{% code title="<img src=x onerror=alert(1)>" %}\n```js\n1\n```\n{% endcode %}'],
    ['html in a tab title', '{% tabs %}\n{% tab title="<script>alert(1)</script>" %}\nx\n{% endtab %}\n{% endtabs %}'],
    ['html in a summary', '<details>\n\n<summary><img src=x onerror=alert(1)><script>alert(1)</script>t</summary>\n\nb\n\n</details>'],
    ['html in a caption', '<figure><img src="a.png" alt="&#x22; onload=&#x22;alert(1)"><figcaption><p>&#x3C;script>alert(1)&#x3C;/script></p></figcaption></figure>'],
    [
      'html in a table cell',
      '<table><thead><tr><th onclick="alert(1)">a</th></tr></thead><tbody><tr><td><a href="javascript:alert(1)">x</a><iframe src="https://evil"></iframe></td></tr></tbody></table>',
    ],
    [
      'javascript: embed and content-ref',
      '{% embed url="javascript:alert(1)" %}\n\n{% content-ref url="javascript:alert(1)" %}\n[x](javascript:alert(1))\n{% endcontent-ref %}\n\n{% file src="javascript:alert(1)" %}',
    ],
    ['katex commands needing trust', '$$\n\\href{javascript:alert(1)}{x} \\htmlId{a}{b} \\url{javascript:alert(1)}\n$$'],
    ['style and mark injection', '<mark style="color:red;background:url(javascript:alert(1))">x</mark> <span style="x" onmouseover="alert(1)">y</span>'],
    ['heading anchor injection', '## T <a href="#x" id="x&#x22; onclick=&#x22;alert(1)"></a>'],
    [
      'html in a pipe table cell',
      '| a | b |\n| - | - |\n| <p style="color:red" onclick="alert(1)">x</p><script>alert(1)</script> | <ul><li onmouseover="alert(1)"><a href="javascript:alert(1)">y</a> <img src="x" onerror="alert(1)"></li></ul><p><a href=" JaVaScRiPt:alert(1)">z</a></p> |',
    ],
    [
      'inline html in a paragraph',
      'a <strong onclick="alert(1)">b</strong> <a href="javascript:alert(1)" onclick="alert(1)">c</a> <code style="x">d</code> <mark onclick="alert(1)">e</mark>',
    ],
  ];
  it.each(attacks)('%s', (_, markdown) => {
    const out = html(markdown);
    expect(dangers(out)).toEqual([]);
    // what was HTML in the content shows as text
    if (markdown.includes('<script>')) expect(out).not.toContain('<script>');
  });

  it('a document built by hand with hostile values is sanitized too', () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'heading-2', data: { id: '"><script>alert(1)</script>' }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '<b>t</b>', marks: [] }] }] },
        {
          object: 'block',
          type: 'images',
          isVoid: false,
          data: {},
          nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'javascript:alert(1)' }, alt: '"onerror="alert(1)' }, fragments: [] }],
        },
        { object: 'block', type: 'code', data: { syntax: '"><script>alert(1)</script>', title: '<script>' }, nodes: [] },
        { object: 'block', type: 'embed', isVoid: true, data: { url: 'javascript:alert(1)' } },
      ],
    } as unknown as JSONDocument;
    const out = toHtml(document);
    expect(dangers(out)).toEqual([]);
    expect(out).not.toContain('<script>');
    expect(out).toContain('<h2 id="b-t-b">&#x3C;b>t&#x3C;/b></h2>');
    expect(out).toContain('<code class="language-scriptalert1script">');
  });
});
