import { afterEach, describe, expect, it } from 'vitest';
import { within } from '@testing-library/dom';
import type { JSONDocument } from '@quire/document';
import type { Json } from '@quire/editor';
import {
  around,
  cellOf,
  change,
  choices,
  destroyEditor,
  doc,
  field,
  first,
  fixture,
  inlineOf,
  Kind,
  leaves,
  link,
  mounted,
  paragraph,
  press,
  RICH_CARDS,
  saved,
  text,
  twoImages,
  voidBlock,
  voidInline,
  withoutKeys,
} from './kinds-fixtures.ts';

afterEach(destroyEditor);

// Each kind the editor edits through fields, in a real editor with its node views (jsdom): opened
// and saved untouched, the document is the same; after an edit of one control, it differs from
// the original by exactly that edit.

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
