import { afterEach, describe, expect, it } from 'vitest';
import type { InlineContent, JSONDocument, TopLevelBlock } from '@quire/document';
import { filterItems, withAnnotationText, type Json } from '@quire/editor';
import {
  around,
  cellOf,
  change,
  destroyEditor,
  doc,
  field,
  fixture,
  inlineOf,
  leaves,
  mounted,
  paragraph,
  RICH_CARDS,
  saved,
  TableJson,
  text,
  withoutKeys,
} from './kinds-fixtures.ts';

afterEach(destroyEditor);

// Rich text cells of tables, colour, annotations and the slash commands, in a real editor (jsdom).

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
