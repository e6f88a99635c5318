import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor } from '@tiptap/react';
import { fromMarkdown, parseMarkdown, toHtml, toMarkdown, type DocumentBlockTable, type JSONDocument } from '@quire/document';
import { fromEditor, toEditor, type PMNode, extensions, filePicker, filterItems, blockFields, type Json } from '@quire/editor';

// The document model through a real editor (the schema checks and fills what convert.ts writes):
// every block of packages/document's fixtures comes back as the same model, and the blocks a
// writer inserts with slash commands are editable nodes that save as the model's blocks.

// (jsdom's import.meta.url is not a file URL; tests run from apps/web.)
const fixtures = new URL('../../packages/document/test/fixtures/', pathToFileURL(`${process.cwd()}/`));
const names = readdirSync(fixtures).filter((n) => n.endsWith('.md') && n !== 'frontmatter.md');
const withoutKeys = (doc: JSONDocument) => JSON.parse(JSON.stringify(doc, (k, v) => (k === 'key' ? undefined : v))) as JSONDocument;

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function open(doc: JSONDocument): Editor {
  editor = new Editor({ extensions: extensions(), content: toEditor(doc), enableContentCheck: true });
  return editor;
}
/** The position before the `index`th node of a type. */
function posOf(e: Editor, type: string, index = 0): number {
  const found: number[] = [];
  e.state.doc.descendants((n, pos) => {
    if (n.type.name === type) found.push(pos);
  });
  return found[index]!;
}
const saved = (e: Editor) => fromEditor(e.getJSON() as PMNode);
const types = (e: Editor) => (e.getJSON().content ?? []).map((n) => n.type);

describe('every block through the editor', () => {
  it.each(names)('%s comes back as the same document', (name) => {
    const { document } = parseMarkdown(readFileSync(new URL(name, fixtures), 'utf8'));
    expect(saved(open(document))).toEqual(withoutKeys(document));
  });

  it('edits every block in place: a node of its own, or the model JSON with fields for each of its kinds', () => {
    const all = names.map((n) => readFileSync(new URL(n, fixtures), 'utf8')).join('\n\n');
    const e = open(fromMarkdown(all));
    const kept = (e.getJSON().content ?? []).filter((n) => n.type === 'gbBlock').map((n) => JSON.parse(n.attrs!.block as string) as Json);
    // Card tables, OpenAPI operations, reusable content and side-by-side images ride whole, with fields.
    expect(new Set(kept.map((b) => b.type))).toEqual(new Set(['table', 'swagger', 'openapi-operation', 'reusable-content', 'images']));
    for (const b of kept) expect(blockFields(b)?.length, String(b.type)).toBeGreaterThan(0);
    for (const type of ['table', 'details', 'tabs', 'blockMath', 'embed', 'file', 'contentRef', 'horizontalRule']) expect(types(e)).toContain(type);
    expect(JSON.stringify(e.getJSON())).toContain('"inlineMath"');
  });

  it('keeps ids and attributes the editor does not show through an edit of a table cell', () => {
    const doc = fromMarkdown('<table data-header-hidden><thead><tr><th width="120"></th><th></th></tr></thead><tbody><tr><td>a</td><td>b</td></tr></tbody></table>\n');
    const e = open(doc);
    e.chain()
      .setTextSelection(posOf(e, 'tableCell') + 2)
      .insertContent('x')
      .run();
    const table = saved(e).nodes[0] as DocumentBlockTable;
    const original = doc.nodes[0] as DocumentBlockTable;
    expect(table.data.view).toEqual(original.data.view);
    expect(table.data.definition).toEqual(original.data.definition);
    expect(Object.keys(table.data.records)).toEqual(Object.keys(original.data.records));
    expect(toMarkdown(saved(e))).toContain('xa');
  });
});

describe('slash commands insert editable blocks', () => {
  const run = (title: string) => {
    const e = open(fromMarkdown('Intro\n'));
    e.commands.setTextSelection(e.state.doc.content.size - 1);
    e.commands.insertContent('/');
    const to = e.state.selection.from;
    const item = filterItems(title.toLowerCase()).find((i) => i.title === title)!;
    item.run(e, { from: to - 1, to });
    return e;
  };

  it('Table: a header row and cells that save as a GitBook table', () => {
    const e = run('Table');
    expect(types(e)).toEqual(['paragraph', 'table', 'paragraph']);
    e.chain()
      .setTextSelection(posOf(e, 'tableHeader') + 2)
      .insertContent('Name')
      .run();
    e.chain()
      .setTextSelection(posOf(e, 'tableCell') + 2)
      .insertContent('alpha')
      .run();
    e.commands.addRowAfter();
    e.commands.addColumnAfter();
    const table = saved(e).nodes[1] as DocumentBlockTable;
    expect(table.data.view.columns).toHaveLength(4);
    expect(Object.keys(table.data.records)).toHaveLength(3);
    expect(toMarkdown(saved(e))).toMatch(/\| Name +\|/);
    expect(toMarkdown(saved(e))).toMatch(/\| alpha +\|/);
  });

  it('Expandable: a title and body', () => {
    const e = run('Expandable');
    e.commands.insertContent('More');
    expect(toMarkdown(saved(e))).toContain('<summary>More</summary>');
  });

  it('Tabs: two tabs; a tab can be added and removed', () => {
    const e = run('Tabs');
    e.commands.addTab(posOf(e, 'tabs'));
    e.commands.insertContent('Linux');
    expect(toMarkdown(saved(e))).toMatch(/\{% tab title="Tab 1" %\}[\s\S]*\{% tab title="Linux" %\}/);
    e.commands.removeTab(posOf(e, 'tab'));
    expect(saved(e).nodes[1]).toMatchObject({ type: 'tabs', nodes: [{ data: { title: 'Tab 2' } }, { data: { title: 'Linux' } }] });
  });

  it('File and Image ask the page for a file of their kind', () => {
    const asked: string[] = [];
    filePicker.pick = (_e, kind) => asked.push(kind);
    run('File');
    run('Image');
    filePicker.pick = undefined;
    expect(asked).toEqual(['file', 'image']);
  });

  it("nests only what the model allows: a table typed in a tab lands after the tabs, a tab's text stays", () => {
    const e = open(fromMarkdown('{% tabs %}\n{% tab title="A" %}\nText\n{% endtab %}\n{% endtabs %}\n'));
    e.commands.setTextSelection(posOf(e, 'paragraph') + 2);
    e.commands.insertTable({ rows: 2, cols: 2 });
    const doc = saved(e);
    expect(doc.nodes.map((n) => n.type)).toContain('table');
    expect(doc.nodes[0]).toMatchObject({ type: 'tabs', nodes: [{ nodes: [{ type: 'paragraph' }] }] });
    expect(JSON.stringify(doc.nodes[0])).not.toContain('"table"');
  });

  it.each([
    ['Math block', 'math'],
    ['Embed', 'embed'],
    ['Page link', 'content-ref'],
    ['Divider', 'divider'],
  ])('%s', (title, type) => {
    expect(saved(run(title)).nodes.map((n) => n.type)).toEqual(['paragraph', type, 'paragraph']);
  });
});

describe('markdown shortcuts', () => {
  /** Types `text` one character at a time, as the view's input rules see typing. */
  const type = (e: Editor, text: string) => {
    for (const ch of text) {
      const { from, to } = e.state.selection;
      const handled = e.view.someProp('handleTextInput', (f) => f(e.view, from, to, ch, () => e.state.tr.insertText(ch, from, to)));
      if (!handled) e.view.dispatch(e.state.tr.insertText(ch, from, to));
    }
  };

  it('$$a^2$$ in a sentence is inline math; $$$E=mc^2$$$ alone on a line is a math block', () => {
    const e = open(fromMarkdown('x\n'));
    e.commands.setTextSelection(e.state.doc.content.size - 1);
    type(e, ' and $$a^2$$');
    e.commands.splitBlock();
    type(e, '$$$E=mc^2$$$');
    expect(saved(e).nodes).toMatchObject([
      { type: 'paragraph', nodes: [{ object: 'text' }, { type: 'inline-math', data: { formula: 'a^2' } }] },
      { type: 'math', data: { formula: 'E=mc^2' } },
      // An empty paragraph holds one empty text, as the document model writes it.
      { type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: '' }] }] },
    ]);
  });
});

describe('pasted HTML', () => {
  it("a published page's markup comes back as the blocks it shows", () => {
    const source = ['embed.md', 'refs.md', 'math.md', 'tabs.md', 'expandable.md', 'table.md'].map((n) => readFileSync(new URL(n, fixtures), 'utf8')).join('\n\n');
    const e = open(fromMarkdown(''));
    // (jsdom has no ClipboardEvent.)
    e.view.pasteHTML(toHtml(fromMarkdown(source), { math: 'source' }), new Event('paste') as ClipboardEvent);
    const doc = saved(e);
    expect(new Set(doc.nodes.map((n) => n.type))).toEqual(new Set(['embed', 'content-ref', 'math', 'paragraph', 'tabs', 'expandable', 'table']));
    expect(doc.nodes.find((n) => n.type === 'math')).toMatchObject({ data: { formula: 'E = mc^2' } });
    expect(JSON.stringify(doc)).toContain('"formula":"a^2 + b^2 = c^2"');
    expect(doc.nodes.find((n) => n.type === 'embed')).toMatchObject({ data: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } });
    expect(doc.nodes.find((n) => n.type === 'tabs')).toMatchObject({ nodes: [{ data: { title: 'macOS' } }, { data: { title: 'Linux' } }] });
  });
});

describe('the fields of atom blocks', () => {
  const mounted = (markdown: string) => {
    editor = new Editor({ element: document.createElement('div'), extensions: extensions(), content: toEditor(fromMarkdown(markdown)) });
    return editor;
  };
  const change = (control: HTMLInputElement | HTMLSelectElement, value: string) => {
    control.value = value;
    control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  };

  it('a page link points at the page chosen from the space', () => {
    const e = mounted('{% content-ref url="old.md" %}\n[old.md](old.md)\n{% endcontent-ref %}\n');
    e.storage.choices.pages = [
      { id: 'p1', title: 'Quickstart' },
      { id: 'p2', title: 'API' },
    ];
    e.commands.insertContentAt(e.state.doc.content.size, { type: 'contentRef' });
    const [kept, added] = [...e.view.dom.querySelectorAll('select')];
    expect([...added!.options].map((o) => o.textContent)).toEqual(['Choose…', 'Quickstart', 'API']);
    change(added!, 'p2');
    expect(
      saved(e)
        .nodes.filter((n) => n.type === 'content-ref')
        .map((n) => n.data),
    ).toEqual([{ ref: { kind: 'url', url: 'old.md' } }, { ref: { kind: 'page', page: 'p2' } }]);
    expect(kept!.value).toBe('old.md');
  });

  it("an embed's URL and caption, a file's caption", () => {
    const e = mounted('{% embed url="https://a.test/v" %}\n\n{% file src="f1" %}\n');
    const [url, caption, fileCaption] = [...e.view.dom.querySelectorAll('input')];
    change(url!, 'https://b.test/w');
    change(caption!, 'A talk');
    change(fileCaption!, 'The guide');
    expect(toMarkdown(saved(e)).trim()).toBe('{% embed url="https://b.test/w" %}\nA talk\n{% endembed %}\n\n{% file src="f1" %}\nThe guide\n{% endfile %}');
  });
});
