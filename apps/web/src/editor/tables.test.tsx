import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Editor as TiptapEditor } from '@tiptap/react';
import { fromMarkdown, toMarkdown, type DocumentBlockTable, type JSONDocument } from '@quire/document';
import { Editor } from './Editor.tsx';

// Tables in the editor as a writer uses them: the table toolbar (shown while the cursor is in a
// table) adds and removes rows and columns; cells hold what GitBook's cells hold (paragraphs with
// any inline content, lists, code blocks). Each edit is saved to the model, written as markdown, and
// shows again when the page is opened anew.

afterEach(cleanup);

const TABLE = '| Name | Kind |\n| --- | --- |\n| alpha | first |\n| beta | second |\n';

/** The editor on `document`; `saved()` is the document its last change gave. */
function open(document: JSONDocument) {
  let read: (() => JSONDocument) | undefined;
  const view = render(<Editor document={document} label="Page body" uploadFile={() => Promise.reject(new Error('no uploads here'))} onChange={(r) => (read = r)} />);
  const dom = screen.getByRole('textbox', { name: 'Page body' });
  // The tiptap editor behind the view: the DOM's editor, as ProseMirror keeps it.
  const editor = (dom as unknown as { editor: TiptapEditor }).editor;
  return { view, dom, editor, saved: () => read!() };
}

/** The position inside the first paragraph of cell (row, column), header row included. */
function cellPos(e: TiptapEditor, row: number, column: number): number {
  let at = -1;
  e.state.doc.descendants((n, pos) => {
    if (n.type.name !== 'table') return at < 0;
    n.forEach((r, rowOffset, ri) =>
      r.forEach((_c, cellOffset, ci) => {
        if (ri === row && ci === column) at = pos + 1 + rowOffset + 1 + cellOffset + 2;
      }),
    );
    return false;
  });
  return at;
}
const inCell = (e: TiptapEditor, row: number, column: number) =>
  act(
    () =>
      void e
        .chain()
        .setTextSelection(cellPos(e, row, column))
        .run(),
  );
/** `content` put at the start of a cell, as if typed there. */
const typeIn = (e: TiptapEditor, row: number, column: number, content: Parameters<TiptapEditor['commands']['insertContent']>[0]) =>
  act(
    () =>
      void e
        .chain()
        .setTextSelection(cellPos(e, row, column))
        .insertContent(content)
        .run(),
  );
const press = (name: string) => act(() => void fireEvent.click(within(screen.getByRole('toolbar', { name: 'Table' })).getByRole('button', { name })));
const tableOf = (d: JSONDocument) => d.nodes.find((n) => n.type === 'table') as DocumentBlockTable;
/** The table's cells' text, row by row, header row first. */
const grid = (dom: HTMLElement) => [...dom.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent));

describe('table toolbar', () => {
  it('shows while the cursor is in a table, with named buttons', () => {
    const { editor } = open(fromMarkdown(`Intro\n\n${TABLE}`));
    expect(screen.queryByRole('toolbar', { name: 'Table' })).toBeNull();
    inCell(editor, 1, 0);
    const toolbar = screen.getByRole('toolbar', { name: 'Table' });
    expect(
      within(toolbar)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Add row', 'Remove row', 'Add column', 'Remove column', 'Header row', 'Remove table']);
    act(() => void editor.chain().setTextSelection(2).run());
    expect(screen.queryByRole('toolbar', { name: 'Table' })).toBeNull();
  });

  it('adds and removes rows and columns; the model has them, and they show when opened again', () => {
    const { editor, saved } = open(fromMarkdown(TABLE));
    // A row after "alpha", then "gamma" typed in it.
    inCell(editor, 1, 0);
    press('Add row');
    typeIn(editor, 2, 0, 'gamma');
    // The "Kind" column removed, a new column after "Name" titled "Size".
    inCell(editor, 0, 1);
    press('Remove column');
    inCell(editor, 0, 0);
    press('Add column');
    typeIn(editor, 0, 1, 'Size');
    // The "beta" row removed.
    inCell(editor, 3, 0);
    press('Remove row');

    const table = tableOf(saved());
    expect(table.data.view.columns.map((c) => table.data.definition[c]!.title)).toEqual(['Name', 'Size']);
    expect(Object.keys(table.data.records)).toHaveLength(2);
    const markdown = toMarkdown(saved());
    expect(markdown).toMatch(/\| *Name *\| *Size *\|/);
    expect(markdown).toMatch(/\| *gamma *\| *\|/);
    expect(markdown).not.toMatch(/beta|Kind|first/);

    cleanup();
    const again = open(fromMarkdown(markdown));
    expect(grid(again.dom)).toEqual([
      ['Name', 'Size'],
      ['alpha', ''],
      ['gamma', ''],
    ]);
  });
});

describe('rich cells', () => {
  it('hold formatted text, links and code blocks, through markdown and back', () => {
    const { editor, saved } = open(fromMarkdown(TABLE));
    typeIn(editor, 1, 1, [
      { type: 'text', text: 'bold', marks: [{ type: 'bold' }] },
      { type: 'text', text: ' and ' },
      { type: 'text', text: 'linked', marks: [{ type: 'link', attrs: { href: 'https://example.com/' } }] },
    ]);
    // After "second" in the "beta" row: Enter, then a code block typed in.
    act(
      () =>
        void editor
          .chain()
          .setTextSelection(cellPos(editor, 2, 1) + 'second'.length)
          .splitBlock()
          .setCodeBlock({ language: 'js' })
          .insertContent('let x = 1;')
          .run(),
    );

    const table = tableOf(saved());
    const cells = table.fragments.map((f) => f.nodes.map((n) => n.type));
    expect(cells).toContainEqual(['paragraph', 'code']);
    const markdown = toMarkdown(saved());
    // Cells beyond one line of text: GitBook's HTML table.
    expect(markdown).toContain('<strong>bold</strong>');
    expect(markdown).toContain('<pre><code class="lang-js">let x = 1;</code></pre>');

    cleanup();
    const again = open(fromMarkdown(markdown));
    const [, first, second] = [...again.dom.querySelectorAll('tr')];
    const rich = first!.querySelectorAll('td')[1]!;
    expect(rich.querySelector('strong')?.textContent).toBe('bold');
    expect(rich.querySelector('a')?.getAttribute('href')).toBe('https://example.com/');
    expect(second!.querySelectorAll('td')[1]!.querySelector('pre')?.textContent).toBe('let x = 1;');
  });

  it('show the inline HTML of a GitBook cell formatted, and save it untouched as GitBook wrote it', () => {
    const markdown = readFileSync(join(import.meta.dirname, '../../../../packages/document/test/fixtures/table-html-cells.md'), 'utf8');
    const { dom, editor, saved } = open(fromMarkdown(`Intro\n\n${markdown}\nOutro\n`));
    const [, type, mode] = [...dom.querySelectorAll('tr')].map((tr) => tr.querySelectorAll('td')[1]!);
    expect([...type!.querySelectorAll('p')].map((p) => p.innerHTML)).toEqual([
      'Either one of these strings:',
      "<code>'fileManager'</code> - the file manager",
      "<code>'editor'</code> - the editor",
    ]);
    expect([...mode!.querySelectorAll('ul > li')].map((li) => li.textContent)).toEqual(['read - read only', 'write - see modes']);
    expect(mode!.querySelector('li strong')?.textContent).toBe('read');
    expect(mode!.querySelector('li a')?.getAttribute('href')).toBe('https://example.com/modes');
    expect(dom.textContent).not.toContain('<p>');
    // An edit elsewhere on the page saves the table byte for byte as GitBook wrote it.
    act(() => void editor.chain().setTextSelection(1).insertContent('The ').run());
    expect(toMarkdown(saved())).toBe(`The Intro\n\n${markdown}\nOutro\n`);
  });

  it('take only what a GitBook cell holds: a list, but no hint', () => {
    const { editor, saved } = open(fromMarkdown(TABLE));
    inCell(editor, 1, 0);
    const before = editor.getJSON();
    expect(editor.commands.setHint('info')).toBe(false);
    expect(editor.getJSON()).toEqual(before);
    expect(editor.commands.toggleBulletList()).toBe(true);
    // Saved first: the editor keeps an empty paragraph after a table that ends the page.
    const table = '| Name                    | Kind   |\n| ----------------------- | ------ |\n| <ul><li>alpha</li></ul> | first  |\n| beta                    | second |\n';
    expect(toMarkdown(saved()).slice(0, table.length)).toBe(table);
  });
});
