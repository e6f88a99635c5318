import { Extension, type Editor, type Range } from '@tiptap/core';
import Suggestion, { type SuggestionProps } from '@tiptap/suggestion';
import { focusFieldsOnSelect } from './node-views.ts';

// Slash commands: `/` opens a menu of blocks, filtered as one types ("/code", "/warn"…); arrow
// keys choose, Enter inserts. The menu is a listbox with named options for assistive technology.

export interface SlashItem {
  title: string;
  keywords: string;
  run: (editor: Editor, range: Range) => void;
}

const chain = (editor: Editor, range: Range) => editor.chain().focus().deleteRange(range);

/** Asks the page for an image or any file; set by the editor view (it uploads to the change request). */
export const filePicker: { pick?: (editor: Editor, kind: UploadKind) => void } = {};
export type UploadKind = 'image' | 'inline-image' | 'file';
/** Asks the page for an operation of one of the organization's specs; set by the editor view (it lists them). */
export const apiOperationPicker: { pick?: (editor: Editor) => void } = {};

/** Inserts `content` in place of the `/` query and opens its fields, focused, for the writer to fill in. */
function insertEditable(e: Editor, r: Range, content: Record<string, unknown>) {
  chain(e, r).insertContent(content).run();
  // The node starts where the query was, or (a block in place of an empty paragraph) just before.
  let at: number | undefined;
  e.state.doc.nodesBetween(Math.max(0, r.from - 1), e.state.doc.content.size, (n, pos) => {
    if (at === undefined && n.type.name === content.type && pos >= r.from - 1) at = pos;
    return at === undefined;
  });
  if (at === undefined) return;
  focusFieldsOnSelect();
  e.commands.setNodeSelection(at);
}
const inline = (json: Record<string, unknown>) => ({ type: 'gbInline', attrs: { inline: JSON.stringify({ object: 'inline', isVoid: true, ...json }) } });
const block = (json: Record<string, unknown>) => ({ type: 'gbBlock', attrs: { block: JSON.stringify({ object: 'block', isVoid: true, ...json }) } });
const upload = (kind: UploadKind) => (e: Editor, r: Range) => {
  chain(e, r).run();
  filePicker.pick?.(e, kind);
};

export const SLASH_ITEMS: SlashItem[] = [
  { title: 'Text', keywords: 'paragraph plain', run: (e, r) => chain(e, r).setParagraph().run() },
  { title: 'Heading 1', keywords: 'h1 title large', run: (e, r) => chain(e, r).setHeading({ level: 1 }).run() },
  { title: 'Heading 2', keywords: 'h2 subtitle', run: (e, r) => chain(e, r).setHeading({ level: 2 }).run() },
  { title: 'Heading 3', keywords: 'h3', run: (e, r) => chain(e, r).setHeading({ level: 3 }).run() },
  { title: 'Bulleted list', keywords: 'unordered ul bullet', run: (e, r) => chain(e, r).toggleBulletList().run() },
  { title: 'Numbered list', keywords: 'ordered ol number', run: (e, r) => chain(e, r).toggleOrderedList().run() },
  { title: 'Task list', keywords: 'todo checkbox', run: (e, r) => chain(e, r).toggleTaskList().run() },
  { title: 'Code block', keywords: 'code pre snippet', run: (e, r) => chain(e, r).setCodeBlock().run() },
  { title: 'Quote', keywords: 'blockquote', run: (e, r) => chain(e, r).setBlockquote().run() },
  { title: 'Divider', keywords: 'hr rule line', run: (e, r) => chain(e, r).setHorizontalRule().run() },
  ...(['info', 'warning', 'danger', 'success'] as const).map((style) => ({
    title: `Hint: ${style}`,
    keywords: `hint callout ${style}`,
    run: (e: Editor, r: Range) => chain(e, r).setHint(style).run(),
  })),
  { title: 'Image', keywords: 'picture upload photo', run: upload('image') },
  { title: 'Inline image', keywords: 'icon picture small upload', run: upload('inline-image') },
  // Filled from the space's files in its fields (an image uploaded first is among them).
  { title: 'Side-by-side images', keywords: 'images gallery picture row', run: (e, r) => insertEditable(e, r, block({ type: 'images', isVoid: false, data: {}, nodes: [] })) },
  { title: 'Table', keywords: 'grid rows columns', run: (e, r) => chain(e, r).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run() },
  { title: 'Expandable', keywords: 'details collapse toggle accordion', run: (e, r) => chain(e, r).setDetails().run() },
  { title: 'Tabs', keywords: 'tabbed switch', run: (e, r) => chain(e, r).insertTabs().run() },
  { title: 'Math block', keywords: 'formula tex latex equation', run: (e, r) => insertEditable(e, r, { type: 'blockMath', attrs: { latex: 'E = mc^2' } }) },
  { title: 'Inline math', keywords: 'formula tex latex equation', run: (e, r) => insertEditable(e, r, { type: 'inlineMath', attrs: { latex: 'x^2' } }) },
  { title: 'Emoji', keywords: 'smiley icon', run: (e, r) => insertEditable(e, r, inline({ type: 'emoji', data: { code: '1f600' } })) },
  { title: 'Icon', keywords: 'symbol glyph', run: (e, r) => insertEditable(e, r, inline({ type: 'icon', data: { icon: 'star' } })) },
  { title: 'Mention', keywords: 'person member user page at @', run: (e, r) => insertEditable(e, r, inline({ type: 'mention', data: { ref: { kind: 'url', url: '' } } })) },
  {
    title: 'Button',
    keywords: 'call to action cta link',
    run: (e, r) => insertEditable(e, r, inline({ type: 'button', data: { label: 'Get started', kind: 'primary', ref: { kind: 'url', url: '' } } })),
  },
  { title: 'Embed', keywords: 'video url link iframe youtube', run: (e, r) => insertEditable(e, r, { type: 'embed' }) },
  { title: 'Page link', keywords: 'content ref card page', run: (e, r) => insertEditable(e, r, { type: 'contentRef' }) },
  { title: 'File', keywords: 'attachment upload download pdf', run: upload('file') },
  {
    title: 'Reusable content',
    keywords: 'include shared snippet',
    run: (e, r) => insertEditable(e, r, block({ type: 'reusable-content', data: { ref: { kind: 'reusable-content', reusableContent: '' } } })),
  },
  {
    title: 'OpenAPI operation',
    keywords: 'swagger api endpoint spec',
    run: (e, r) => insertEditable(e, r, block({ type: 'swagger', data: { ref: { kind: 'url', url: '' }, path: '/', method: 'get' } })),
  },
  {
    title: 'API operation from an organization spec',
    keywords: 'openapi swagger api endpoint spec insert',
    run: (e, r) => {
      chain(e, r).run();
      apiOperationPicker.pick?.(e);
    },
  },
];

export function filterItems(query: string): SlashItem[] {
  const q = query.toLowerCase().trim();
  return SLASH_ITEMS.filter((i) => !q || i.title.toLowerCase().includes(q) || i.keywords.includes(q));
}

/** The menu, as plain DOM: it lives as long as one `/` query, outside React's tree. */
function menu() {
  let el: HTMLDivElement | undefined;
  let props: SuggestionProps<SlashItem> | undefined;
  let active = 0;
  const draw = () => {
    if (!el || !props) return;
    el.replaceChildren(
      ...props.items.map((item, i) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.role = 'option';
        b.id = `slash-${i}`;
        b.textContent = item.title;
        b.setAttribute('aria-selected', String(i === active));
        b.onmousedown = (e) => {
          e.preventDefault();
          props!.command(item);
        };
        return b;
      }),
    );
    if (!props.items.length) el.textContent = 'No matching block';
    const rect = props.clientRect?.();
    if (rect) Object.assign(el.style, { left: `${rect.left + window.scrollX}px`, top: `${rect.bottom + window.scrollY + 4}px` });
  };
  return {
    onStart(p: SuggestionProps<SlashItem>) {
      props = p;
      active = 0;
      el = document.createElement('div');
      el.className = 'slash-menu';
      el.role = 'listbox';
      el.setAttribute('aria-label', 'Insert a block');
      document.body.append(el);
      draw();
    },
    onUpdate(p: SuggestionProps<SlashItem>) {
      props = p;
      active = Math.min(active, Math.max(0, p.items.length - 1));
      draw();
    },
    onKeyDown({ event }: { event: KeyboardEvent }) {
      if (!props) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const n = props.items.length || 1;
        active = (active + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
        draw();
        return true;
      }
      if (event.key === 'Enter' && props.items[active]) {
        props.command(props.items[active]!);
        return true;
      }
      return event.key === 'Escape';
    },
    onExit() {
      el?.remove();
      el = undefined;
      props = undefined;
    },
  };
}

export const SlashCommands = Extension.create({
  name: 'slashCommands',
  addProseMirrorPlugins() {
    return [
      Suggestion<SlashItem>({
        editor: this.editor,
        char: '/',
        startOfLine: false,
        allowSpaces: false,
        items: ({ query }) => filterItems(query),
        command: ({ editor, range, props }) => props.run(editor, range),
        render: menu,
      }),
    ];
  },
});
