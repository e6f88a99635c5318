import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor } from '@tiptap/react';
import { within } from '@testing-library/dom';
import { parseMarkdown, type InlineContent, type JSONDocument, type TopLevelBlock } from '@quire/document';
import { fromEditor, toEditor, type PMNode } from './convert.ts';
import { extensions } from './extensions.ts';
import { filterItems } from './slash.ts';
import { withAnnotationText, type Json } from './fields.ts';

// Each kind the editor edits through fields, in a real editor with its node views (jsdom): opened
// and saved untouched, the document is the same; after an edit of one control, it differs from
// the original by exactly that edit.

const fixtures = new URL('../../packages/document/test/fixtures/', pathToFileURL(`${process.cwd()}/`));
const fixture = (name: string) => parseMarkdown(readFileSync(new URL(name, fixtures), 'utf8')).document;
const withoutKeys = (doc: JSONDocument) => JSON.parse(JSON.stringify(doc, (k, v) => (k === 'key' ? undefined : v))) as JSONDocument;

const text = (t: string, marks: unknown[] = []) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks }] });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as JSONDocument;
/** A paragraph holding `inline` between two texts. */
const around = (inline: Json) => doc(paragraph(text('Before '), inline, text(' after.')));
const voidInline = (type: string, data: Json) => ({ object: 'inline', type, isVoid: true, data });
const voidBlock = (type: string, data: Json) => ({ object: 'block', type, isVoid: true, data });

const choices = {
  pages: [{ id: 'p1', title: 'Introduction' }],
  users: [
    { id: 'u1', title: 'Ada Lovelace' },
    { id: 'u2', title: 'Grace Hopper' },
  ],
  files: [
    { id: 'f1', title: 'logo.png', url: 'https://files.test/logo.png' },
    { id: 'f2', title: 'flow.svg', url: 'https://files.test/flow.svg' },
  ],
  reusableContents: [
    { id: 'rc1', title: 'Setup steps' },
    { id: 'rc2', title: 'Footer' },
  ],
  render: async (id: string) => `<p>Body of ${id}</p>`,
};

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function mounted(document: JSONDocument) {
  editor?.destroy();
  const element = window.document.createElement('div');
  window.document.body.append(element);
  editor = new Editor({ element, extensions: extensions(choices), content: toEditor(document), enableContentCheck: true });
  return editor;
}
const saved = (e: Editor) => fromEditor(e.getJSON() as PMNode);
/** Presses a field panel's button as a writer does. */
function press(e: Editor, name: string) {
  within(e.view.dom as HTMLElement)
    .getByRole('button', { name })
    .click();
}
/** Sets a control as a writer does: its value, then the event its view listens to. */
function change(e: Editor, label: string, value: string, index = 0) {
  const control = within(e.view.dom as HTMLElement).getAllByLabelText(label)[index] as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  control.value = value;
  control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}
const first = (d: JSONDocument) => d.nodes[0] as unknown as Json & { data: Json; nodes: Json[] };
const inlineOf = (d: JSONDocument) => first(d).nodes[1] as Json & { data: Json };

const leaves = (...runs: [string, unknown[]?][]) => ({ object: 'text', leaves: runs.map(([t, marks = []]) => ({ object: 'leaf', text: t, marks })) });
const link = (url: string, ...nodes: unknown[]) => ({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes });
const field = (dom: HTMLElement, label: string) => within(dom).getByLabelText(label) as HTMLTextAreaElement;

/** A card table (GitBook's markdown) whose first card has a rich text cell: marks, a link, two paragraphs. */
const RICH_CARDS = parseMarkdown(
  '<table data-view="cards"><thead><tr><th>Title</th><th>Details</th></tr></thead><tbody>' +
    '<tr><td>Quickstart</td><td><p>Read the <strong>short</strong> <a href="https://a.test/guide">guide</a>.</p><p>Then build.</p></td></tr>' +
    '<tr><td>API</td><td><p>Every <em>endpoint</em>.</p><p>By tag.</p></td></tr></tbody></table>\n',
).document;
type TableJson = {
  data: { records: Record<string, { values: Record<string, string> }>; definition: Record<string, { title: string }> };
  fragments: { fragment: string; nodes: unknown[] }[];
};
/** The fragment of a row's text cell (rows in the table's order, from 0), found by the column's title. */
function cellOf(d: JSONDocument, row: number, title: string) {
  const table = d.nodes[0] as unknown as TableJson;
  const column = Object.entries(table.data.definition).find(([, def]) => def.title === title)![0];
  const name = Object.values(table.data.records)[row]!.values[column];
  return table.fragments.find((f) => f.fragment === name)!;
}

interface Kind {
  document: JSONDocument;
  /** The edits, as a writer makes them with the kind's controls. */
  edit(e: Editor): void;
  /** The same edit on the model's JSON (a copy of `document`). */
  expected(d: JSONDocument): void;
  /** What the view shows of it, before the edit. */
  shows?: (dom: HTMLElement) => void;
  /** What the view shows of it when the edited document is opened again. */
  showsEdited?: (dom: HTMLElement) => void;
}

/** Side-by-side images of the space's files f1 and f2. */
const twoImages = () =>
  doc({
    object: 'block',
    type: 'images',
    isVoid: false,
    data: {},
    nodes: ['f1', 'f2'].map((file) => ({ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file }, alt: file }, fragments: [] })),
  });
const KINDS: Record<string, Kind> = {
  emoji: {
    document: around(voidInline('emoji', { code: '1f44d' })),
    shows: (dom) => expect(dom.textContent).toContain('👍'),
    edit: (e) => change(e, 'Emoji', '🎉'),
    expected: (d) => (inlineOf(d).data.code = '1f389'),
  },
  'mention of a member': {
    document: around(voidInline('mention', { ref: { kind: 'user', user: 'u1' } })),
    shows: (dom) => expect(dom.querySelector('.mention')?.textContent).toBe('@Ada Lovelace'),
    edit: (e) => change(e, 'Mentions', 'user:u2'),
    expected: (d) => (inlineOf(d).data.ref = { kind: 'user', user: 'u2' }),
  },
  'mention of a page': {
    document: around(voidInline('mention', { ref: { kind: 'url', url: 'getting-started.md' } })),
    edit: (e) => change(e, 'Mentions', 'page:p1'),
    expected: (d) => (inlineOf(d).data.ref = { kind: 'page', page: 'p1' }),
  },
  button: {
    document: around(voidInline('button', { label: 'Start', kind: 'primary', ref: { kind: 'url', url: 'https://a.test/' } })),
    shows: (dom) => expect(dom.querySelector('.button-primary')?.textContent).toBe('Start'),
    edit: (e) => {
      change(e, 'Label', 'Go');
      change(e, 'Style', 'secondary');
      change(e, 'Links to page', 'page:p1');
      change(e, 'Icon', 'rocket');
    },
    expected: (d) => Object.assign(inlineOf(d).data, { label: 'Go', kind: 'secondary', ref: { kind: 'page', page: 'p1' }, icon: 'rocket' }),
  },
  icon: {
    document: around(voidInline('icon', { icon: 'rocket' })),
    shows: (dom) => expect(dom.textContent).toContain('rocket'),
    edit: (e) => {
      // An emptied field leaves the icon as it was (an icon has a name); then a new name.
      change(e, 'Icon', '');
      change(e, 'Icon', ' circle-check ');
    },
    expected: (d) => (inlineOf(d).data.icon = 'circle-check'),
    showsEdited: (dom) => expect(dom.textContent).toContain('circle-check'),
  },
  'inline image': {
    document: around(voidInline('inline-image', { ref: { kind: 'file', file: 'f1' }, caption: 'logo' })),
    shows: (dom) => expect(dom.querySelector('img')?.getAttribute('src')).toBe('https://files.test/logo.png'),
    edit: (e) => {
      change(e, 'Caption', 'The logo');
      change(e, 'Size', 'line');
    },
    expected: (d) => Object.assign(inlineOf(d).data, { caption: 'The logo', size: 'line' }),
  },
  'inline math': {
    document: around(voidInline('inline-math', { formula: 'a^2' })),
    shows: (dom) => expect(dom.querySelector('.katex')).not.toBeNull(),
    edit: (e) => change(e, 'TeX formula', 'b^2'),
    expected: (d) => (inlineOf(d).data.formula = 'b^2'),
  },
  'math block': {
    document: doc(voidBlock('math', { formula: 'E = mc^2' })),
    edit: (e) => change(e, 'TeX formula', '\\sum_i x_i'),
    expected: (d) => (first(d).data.formula = '\\sum_i x_i'),
  },
  'reusable content': {
    document: doc(paragraph(text('Shared:')), voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'rc1' } })),
    edit: (e) => change(e, 'Reusable content', 'rc2'),
    expected: (d) => ((d.nodes[1] as unknown as { data: { ref: Json } }).data.ref.reusableContent = 'rc2'),
  },
  'side-by-side images': {
    document: twoImages(),
    shows: (dom) => expect([...dom.querySelectorAll('.card-block-preview img')].map((i) => i.getAttribute('src'))).toEqual(choices.files.map((f) => f.url)),
    edit: (e) => {
      change(e, 'Alignment', 'center');
      change(e, 'Image 2 alt text', 'The flow');
    },
    expected: (d) => {
      first(d).data.align = 'center';
      (first(d).nodes[1] as { data: Json }).data.alt = 'The flow';
    },
  },
  'side-by-side images: added, moved, removed': {
    document: twoImages(),
    edit: (e) => {
      const buttons = () => within(e.view.dom as HTMLElement);
      expect((buttons().getByRole('button', { name: 'Move image 1 left' }) as HTMLButtonElement).disabled).toBe(true);
      expect((buttons().getByRole('button', { name: 'Move image 2 right' }) as HTMLButtonElement).disabled).toBe(true);
      // f1, f2 → f1, f2, f2 (new) → f1, f2 (new), f2 → f2 (new), f2.
      change(e, 'Add image', 'f2');
      expect(buttons().getByLabelText('Image 3 alt text')).toBeDefined();
      press(e, 'Move image 3 left');
      press(e, 'Remove image 1');
      expect(buttons().queryByLabelText('Image 3 alt text')).toBeNull();
    },
    expected: (d) => {
      const [, f2] = first(d).nodes;
      first(d).nodes = [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'f2' } }, fragments: [] }, f2!];
    },
    showsEdited: (dom) => {
      expect([...dom.querySelectorAll('.card-block-preview img')].map((i) => i.getAttribute('alt'))).toEqual(['', 'f2']);
      expect((within(dom).getByLabelText('Image 2 alt text') as HTMLInputElement).value).toBe('f2');
    },
  },
  'card table': {
    document: fixture('cards.md'),
    edit: (e) => {
      change(e, 'Card size', 'large');
      change(e, 'Row 1 column 1', 'Start here');
    },
    expected: (d) => {
      const table = first(d) as unknown as { data: { view: Json; records: Record<string, { values: Record<string, string> }> }; fragments: { fragment: string; nodes: Json[] }[] };
      table.data.view.cardSize = 'large';
      const firstRecord = Object.values(table.data.records)[0]!;
      const cell = table.fragments.find((f) => f.fragment === firstRecord.values[(table.data.view.columns as string[])[0]!])!;
      // The cell's bold stays.
      (((cell.nodes[0]!.nodes as Json[])[0]!.leaves as Json[])[0] as { text: string }).text = 'Start here';
    },
  },
  'card table with a rich text cell': {
    document: RICH_CARDS,
    shows: (dom) => expect(field(dom, 'Row 1 Details').value).toBe('Read the **short** [guide](https://a.test/guide).\n\nThen build.'),
    edit: (e) => change(e, 'Row 1 Details', 'Read the **new** [guide](https://b.test/guide).\n\nThen _ship_.'),
    expected: (d) => {
      const bold = [{ object: 'mark', type: 'bold' }];
      const italic = [{ object: 'mark', type: 'italic' }];
      cellOf(d, 0, 'Details').nodes = [
        paragraph(leaves(['Read the '], ['new', bold], [' ']), link('https://b.test/guide', text('guide')), text('.')),
        paragraph(leaves(['Then '], ['ship', italic], ['.'])),
      ];
    },
    showsEdited: (dom) => {
      expect(field(dom, 'Row 1 Details').value).toBe('Read the **new** [guide](https://b.test/guide).\n\nThen _ship_.');
      expect(dom.querySelector('.card-block-preview strong')?.textContent).toBe('new');
      expect(dom.querySelector('.card-block-preview a')?.getAttribute('href')).toBe('https://b.test/guide');
    },
  },
  'typed columns': {
    document: doc({
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['n', 'done', 'level'], hideHeader: false },
        records: { r1: { orderIndex: 'a0', values: { n: 3, done: false } } },
        definition: {
          n: { id: 'n', title: 'Count', type: 'number' },
          done: { id: 'done', title: 'Done', type: 'checkbox' },
          level: { id: 'level', title: 'Level', type: 'select', multiple: false, options: [{ value: 'hi', label: 'High', color: 'red' }] },
        },
      },
      fragments: [],
    }),
    edit: (e) => {
      change(e, 'Row 1 Count', '42');
      change(e, 'Row 1 Done', 'true');
      change(e, 'Row 1 Level', 'hi');
    },
    expected: (d) => Object.assign((first(d).data.records as Record<string, { values: Json }>).r1!.values, { n: 42, done: true, level: ['hi'] }),
  },
  'OpenAPI operation': {
    document: fixture('openapi.md'),
    edit: (e) => {
      change(e, 'Path', '/pets');
      change(e, 'Method', 'post');
      change(e, 'Spec URL', 'https://example.com/v2.json', 1);
    },
    expected: (d) => {
      Object.assign(first(d).data, { path: '/pets', method: 'post' });
      (d.nodes[1] as unknown as { data: Json }).data.ref = { kind: 'url', url: 'https://example.com/v2.json' };
    },
  },
  integration: {
    document: doc(voidBlock('integration', { integration: 'github', block: 'file', props: { url: 'https://github.com/a/b' } })),
    edit: (e) => {
      change(e, 'Properties (JSON)', '{"url": "https://github.com/a/c"');
      change(e, 'Properties (JSON)', '{"url": "https://github.com/a/c"}');
      change(e, 'Integration block', 'code');
    },
    expected: (d) => Object.assign(first(d).data, { block: 'code', props: { url: 'https://github.com/a/c' } }),
  },
  drawing: {
    document: doc(voidBlock('drawing', { ref: { kind: 'file', file: 'f1' } })),
    shows: (dom) => expect(dom.querySelector('.card-block-preview img')?.getAttribute('src')).toBe('https://files.test/logo.png'),
    edit: (e) => change(e, 'Drawing', 'file:f2'),
    expected: (d) => (first(d).data.ref = { kind: 'file', file: 'f2' }),
  },
};

describe('the kinds edited through their fields', () => {
  it.each(Object.keys(KINDS))('%s: the same document untouched, exactly the edit after one', (name) => {
    const kind = KINDS[name]!;
    // A closing paragraph: the editor adds one after a page's last block when that is an atom.
    const document = { ...kind.document, nodes: [...kind.document.nodes, paragraph(text('End.'))] } as JSONDocument;
    const original = withoutKeys(document);
    const e = mounted(document);
    expect(saved(e)).toEqual(original);
    kind.shows?.(e.view.dom as HTMLElement);
    kind.edit(e);
    const expected = structuredClone(original);
    kind.expected(expected);
    expect(saved(e)).toEqual(expected);
    // Opened again, the edit is there.
    const again = mounted(saved(e));
    expect(saved(again)).toEqual(expected);
    kind.showsEdited?.(again.view.dom as HTMLElement);
  });

  it('the last of side-by-side images cannot be removed (the block is deleted as any block is)', () => {
    const e = mounted(KINDS['side-by-side images: added, moved, removed']!.document);
    press(e, 'Remove image 2');
    expect((within(e.view.dom as HTMLElement).getByRole('button', { name: 'Remove image 1' }) as HTMLButtonElement).disabled).toBe(true);
    expect((saved(e).nodes[0] as unknown as { nodes: unknown[] }).nodes).toHaveLength(1);
  });

  it('a reusable content is shown rendered, and again when another is chosen', async () => {
    const e = mounted(KINDS['reusable content']!.document);
    const preview = e.view.dom.querySelector('.card-block-preview')!;
    await expect.poll(() => preview.textContent).toBe('Body of rc1');
    change(e, 'Reusable content', 'rc2');
    await expect.poll(() => preview.textContent).toBe('Body of rc2');
    const select = within(e.view.dom as HTMLElement).getByLabelText('Reusable content') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Setup steps', 'Footer']);
  });

  it("an inline's fields show while it is selected", () => {
    const e = mounted(KINDS.emoji!.document);
    const panel = e.view.dom.querySelector('.field-panel') as HTMLElement;
    expect(panel.hidden).toBe(true);
    e.commands.setNodeSelection('Before '.length + 1);
    expect(panel.hidden).toBe(false);
    expect(panel.getAttribute('aria-label')).toBe('Emoji');
    e.commands.setTextSelection(1);
    expect(panel.hidden).toBe(true);
  });
});

describe('rich text cells of card and typed tables', () => {
  const table = (d: JSONDocument) => d.nodes[0] as unknown as TableJson;

  it('an edited cell is written as its blocks; the cells left alone are byte-identical', () => {
    const e = mounted(RICH_CARDS);
    const before = saved(e);
    change(e, 'Row 2 Details', 'Every **route**.');
    const after = saved(e);
    expect(cellOf(after, 1, 'Details').nodes).toEqual([paragraph(leaves(['Every '], ['route', [{ object: 'mark', type: 'bold' }]], ['.']))]);
    const untouched = (d: JSONDocument) =>
      table(d)
        .fragments.filter((f) => f.fragment !== cellOf(d, 1, 'Details').fragment)
        .map((f) => JSON.stringify(f));
    expect(untouched(after)).toEqual(untouched(before));
    expect(untouched(after)).toHaveLength(3);
    // The fragment keeps its name: the record still points at it.
    expect(cellOf(after, 1, 'Details').fragment).toBe(cellOf(before, 1, 'Details').fragment);
  });

  it('a typed table (a number column beside a text column) edits its rich text cell the same way', () => {
    const italic = [{ object: 'mark', type: 'italic' }];
    const e = mounted(
      doc({
        object: 'block',
        type: 'table',
        isVoid: true,
        data: {
          view: { type: 'grid', columns: ['n', 'notes'], hideHeader: false },
          records: { r1: { orderIndex: 'a0', values: { n: 1, notes: 'c1' } } },
          definition: { n: { id: 'n', title: 'Count', type: 'number' }, notes: { id: 'notes', title: 'Notes', type: 'text', textAlignment: 'left' } },
        },
        fragments: [{ object: 'fragment', fragment: 'c1', nodes: [paragraph(text('One')), paragraph(text('Two'))] }],
      }),
    );
    expect(field(e.view.dom as HTMLElement, 'Row 1 Notes').value).toBe('One\n\nTwo');
    change(e, 'Row 1 Notes', 'One\n\n_Three_');
    expect(table(saved(e)).fragments).toEqual([{ object: 'fragment', fragment: 'c1', nodes: [paragraph(text('One')), paragraph(text('Three', italic))] }]);
  });

  it('a cell whose content markdown would change is read-only, and says why', () => {
    const document = structuredClone(RICH_CARDS);
    // A link to a page of the space: markdown keeps a path, not the page's id.
    const cell = cellOf(document, 0, 'Details');
    cell.nodes = [paragraph(text('See '), { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'p1' } }, nodes: [text('the intro')] })];
    const e = mounted(document);
    const control = field(e.view.dom as HTMLElement, 'Row 1 Details');
    expect(control.readOnly).toBe(true);
    const note = window.document.getElementById(control.getAttribute('aria-describedby')!);
    expect(note?.textContent).toMatch(/^Read-only here: written as markdown, this cell's content would change/);
    const before = saved(e);
    change(e, 'Row 1 Details', 'Something else');
    expect(saved(e)).toEqual(before);
  });

  it('text a cell cannot hold is not written, and the field says why until it can be', () => {
    const e = mounted(RICH_CARDS);
    const before = saved(e);
    change(e, 'Row 1 Details', '# A heading');
    expect(saved(e)).toEqual(before);
    const control = field(e.view.dom as HTMLElement, 'Row 1 Details');
    const note = window.document.getElementById(control.getAttribute('aria-describedby')!)!;
    expect(control.getAttribute('aria-invalid')).not.toBeNull();
    expect(note.textContent).toBe('Not saved: a cell holds paragraphs and code blocks only (no headings, lists, quotes…).');
    change(e, 'Row 1 Details', 'A paragraph');
    // The same control, though the cell is now one plain run.
    expect(field(e.view.dom as HTMLElement, 'Row 1 Details')).toBe(control);
    expect(control.getAttribute('aria-invalid')).toBeNull();
    expect(note.textContent).toBe('');
    expect(cellOf(saved(e), 0, 'Details').nodes).toEqual([paragraph(text('A paragraph'))]);
  });
});

describe('colour', () => {
  it('keeps a colour, and sets one on the selection', () => {
    const original = withoutKeys(fixture('marks.md'));
    const e = mounted(fixture('marks.md'));
    expect(saved(e)).toEqual(original);
    // "Some " then the coloured "red text": a background added to it keeps its text colour.
    e.chain().setTextSelection({ from: 6, to: 14 }).setColor({ background: 'yellow' }).run();
    const leaves = (saved(e).nodes[0] as { nodes: InlineContent[] }).nodes.flatMap((n) => (n.object === 'text' ? n.leaves : []));
    expect(leaves.find((l) => l.text === 'red text')?.marks).toEqual([{ object: 'mark', type: 'color', data: { text: 'red', background: 'yellow' } }]);
    // Both back to the default: no colour mark at all.
    e.chain().setTextSelection({ from: 6, to: 14 }).setColor({ text: 'default', background: 'default' }).run();
    expect(((saved(e).nodes[0] as { nodes: InlineContent[] }).nodes[0] as { leaves: unknown[] }).leaves[0]).toEqual({ object: 'leaf', text: 'Some red text, a ', marks: [] });
  });
});

describe('annotations', () => {
  const note = (t: string) => [{ object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: [paragraph(text(t))] }];
  const annotated = () =>
    around({ object: 'inline', type: 'annotation', isVoid: false, data: {}, nodes: [text('this', [{ object: 'mark', type: 'bold' }])], fragments: note('A note') });

  it('keeps an annotation; its text is edited in place, its note through the mark', () => {
    const original = withoutKeys(annotated());
    const e = mounted(annotated());
    expect(saved(e)).toEqual(original);
    const inside = 'Before '.length + 3;
    e.chain().setTextSelection(inside).insertContent('i').run();
    e.chain()
      .setTextSelection(inside)
      .extendMarkRange('annotation')
      .updateAttributes('annotation', { note: JSON.stringify(withAnnotationText(JSON.parse(String(e.getAttributes('annotation').note)) as Json, 'A longer note')) })
      .run();
    const expected = structuredClone(original);
    Object.assign(inlineOf(expected), { nodes: [text('thiis', [{ object: 'mark', type: 'bold' }])], fragments: note('A longer note') });
    expect(saved(e)).toEqual(expected);
  });
});

describe('slash commands insert the kinds', () => {
  const run = (title: string) => {
    const e = mounted(doc(paragraph(text('Intro'))));
    e.commands.setTextSelection(e.state.doc.content.size - 1);
    e.commands.insertContent('/');
    const to = e.state.selection.from;
    filterItems(title.toLowerCase())
      .find((i) => i.title === title)!
      .run(e, { from: to - 1, to });
    return e;
  };

  it.each([
    ['Emoji', { type: 'emoji', data: { code: '1f600' } }],
    ['Mention', { type: 'mention' }],
    ['Button', { type: 'button', data: { kind: 'primary' } }],
    ['Inline math', { type: 'inline-math' }],
    ['Icon', { type: 'icon', data: { icon: 'star' } }],
  ])('%s: inline, selected with its fields open', (title, inline) => {
    const e = run(title);
    expect((saved(e).nodes[0] as { nodes: InlineContent[] }).nodes).toMatchObject([{ object: 'text' }, inline]);
    expect((e.view.dom.querySelector('.field-panel') as HTMLElement).hidden).toBe(false);
  });

  it.each([
    ['Reusable content', 'reusable-content'],
    ['OpenAPI operation', 'swagger'],
    ['Side-by-side images', 'images'],
  ])('%s', (title, type) => {
    const nodes = saved(run(title)).nodes as TopLevelBlock[];
    expect(nodes.map((n) => n.type)).toEqual(['paragraph', type, 'paragraph']);
  });
});
