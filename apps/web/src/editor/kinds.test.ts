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
  const element = window.document.createElement('div');
  window.document.body.append(element);
  editor = new Editor({ element, extensions: extensions(choices), content: toEditor(document), enableContentCheck: true });
  return editor;
}
const saved = (e: Editor) => fromEditor(e.getJSON() as PMNode);
/** Sets a control as a writer does: its value, then the event its view listens to. */
function change(e: Editor, label: string, value: string, index = 0) {
  const control = within(e.view.dom as HTMLElement).getAllByLabelText(label)[index] as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  control.value = value;
  control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}
const first = (d: JSONDocument) => d.nodes[0] as unknown as Json & { data: Json; nodes: Json[] };
const inlineOf = (d: JSONDocument) => first(d).nodes[1] as Json & { data: Json };

interface Kind {
  document: JSONDocument;
  /** The edits, as a writer makes them with the kind's controls. */
  edit(e: Editor): void;
  /** The same edit on the model's JSON (a copy of `document`). */
  expected(d: JSONDocument): void;
  /** What the view shows of it, before the edit. */
  shows?: (dom: HTMLElement) => void;
}

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
    },
    expected: (d) => Object.assign(inlineOf(d).data, { label: 'Go', kind: 'secondary', ref: { kind: 'page', page: 'p1' } }),
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
    document: doc({
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: ['f1', 'f2'].map((file) => ({ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file }, alt: file }, fragments: [] })),
    }),
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
  ])('%s: inline, selected with its fields open', (title, inline) => {
    const e = run(title);
    expect((saved(e).nodes[0] as { nodes: InlineContent[] }).nodes).toMatchObject([{ object: 'text' }, inline]);
    expect((e.view.dom.querySelector('.field-panel') as HTMLElement).hidden).toBe(false);
  });

  it.each([
    ['Reusable content', 'reusable-content'],
    ['OpenAPI operation', 'swagger'],
  ])('%s', (title, type) => {
    const nodes = saved(run(title)).nodes as TopLevelBlock[];
    expect(nodes.map((n) => n.type)).toEqual(['paragraph', type, 'paragraph']);
  });
});
