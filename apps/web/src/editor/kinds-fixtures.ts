import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Editor } from '@tiptap/react';
import { within } from '@testing-library/dom';
import { parseMarkdown, type JSONDocument } from '@quire/document';
import { fromEditor, toEditor, type PMNode, extensions, type Json } from '@quire/editor';

// The documents, choices and editor steps of the tests of the kinds edited through fields.

const fixtures = new URL('../../packages/document/test/fixtures/', pathToFileURL(`${process.cwd()}/`));
export const fixture = (name: string) => parseMarkdown(readFileSync(new URL(name, fixtures), 'utf8')).document;
export const withoutKeys = (doc: JSONDocument) => JSON.parse(JSON.stringify(doc, (k, v) => (k === 'key' ? undefined : v))) as JSONDocument;

export const text = (t: string, marks: unknown[] = []) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks }] });
export const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
export const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as JSONDocument;
/** A paragraph holding `inline` between two texts. */
export const around = (inline: Json) => doc(paragraph(text('Before '), inline, text(' after.')));
export const voidInline = (type: string, data: Json) => ({ object: 'inline', type, isVoid: true, data });
export const voidBlock = (type: string, data: Json) => ({ object: 'block', type, isVoid: true, data });

export const choices = {
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
/** Each test file's afterEach: the editor `mounted` last, gone. */
export const destroyEditor = () => editor?.destroy();

export function mounted(document: JSONDocument) {
  editor?.destroy();
  const element = window.document.createElement('div');
  window.document.body.append(element);
  editor = new Editor({ element, extensions: extensions(choices), content: toEditor(document), enableContentCheck: true });
  return editor;
}
export const saved = (e: Editor) => fromEditor(e.getJSON() as PMNode);
/** Presses a field panel's button as a writer does. */
export function press(e: Editor, name: string) {
  within(e.view.dom as HTMLElement)
    .getByRole('button', { name })
    .click();
}
/** Sets a control as a writer does: its value, then the event its view listens to. */
export function change(e: Editor, label: string, value: string, index = 0) {
  const control = within(e.view.dom as HTMLElement).getAllByLabelText(label)[index] as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  control.value = value;
  control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}
export const first = (d: JSONDocument) => d.nodes[0] as unknown as Json & { data: Json; nodes: Json[] };
export const inlineOf = (d: JSONDocument) => first(d).nodes[1] as Json & { data: Json };

export const leaves = (...runs: [string, unknown[]?][]) => ({ object: 'text', leaves: runs.map(([t, marks = []]) => ({ object: 'leaf', text: t, marks })) });
export const link = (url: string, ...nodes: unknown[]) => ({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes });
export const field = (dom: HTMLElement, label: string) => within(dom).getByLabelText(label) as HTMLTextAreaElement;

/** A card table (GitBook's markdown) whose first card has a rich text cell: marks, a link, two paragraphs. */
export const RICH_CARDS = parseMarkdown(
  '<table data-view="cards"><thead><tr><th>Title</th><th>Details</th></tr></thead><tbody>' +
    '<tr><td>Quickstart</td><td><p>Read the <strong>short</strong> <a href="https://a.test/guide">guide</a>.</p><p>Then build.</p></td></tr>' +
    '<tr><td>API</td><td><p>Every <em>endpoint</em>.</p><p>By tag.</p></td></tr></tbody></table>\n',
).document;
export type TableJson = {
  data: { records: Record<string, { values: Record<string, string> }>; definition: Record<string, { title: string }> };
  fragments: { fragment: string; nodes: unknown[] }[];
};
/** The fragment of a row's text cell (rows in the table's order, from 0), found by the column's title. */
export function cellOf(d: JSONDocument, row: number, title: string) {
  const table = d.nodes[0] as unknown as TableJson;
  const column = Object.entries(table.data.definition).find(([, def]) => def.title === title)![0];
  const name = Object.values(table.data.records)[row]!.values[column];
  return table.fragments.find((f) => f.fragment === name)!;
}

export interface Kind {
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
export const twoImages = () =>
  doc({
    object: 'block',
    type: 'images',
    isVoid: false,
    data: {},
    nodes: ['f1', 'f2'].map((file) => ({ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file }, alt: file }, fragments: [] })),
  });
