import { Extension, type Editor, type Range } from '@tiptap/react';
import Suggestion, { type SuggestionProps } from '@tiptap/suggestion';

// Slash commands: `/` opens a menu of blocks, filtered as one types ("/code", "/warn"…); arrow
// keys choose, Enter inserts. The menu is a listbox with named options for assistive technology.

export interface SlashItem {
  title: string;
  keywords: string;
  run: (editor: Editor, range: Range) => void;
}

const chain = (editor: Editor, range: Range) => editor.chain().focus().deleteRange(range);

/** Asks the page for an image or any file; set by the editor view (it uploads to the change request). */
export const filePicker: { pick?: (editor: Editor, kind: 'image' | 'file') => void } = {};

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
  {
    title: 'Image',
    keywords: 'picture upload photo',
    run: (e, r) => {
      chain(e, r).run();
      filePicker.pick?.(e, 'image');
    },
  },
  { title: 'Table', keywords: 'grid rows columns', run: (e, r) => chain(e, r).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run() },
  { title: 'Expandable', keywords: 'details collapse toggle accordion', run: (e, r) => chain(e, r).setDetails().run() },
  { title: 'Tabs', keywords: 'tabbed switch', run: (e, r) => chain(e, r).insertTabs().run() },
  { title: 'Math block', keywords: 'formula tex latex equation', run: (e, r) => chain(e, r).insertBlockMath({ latex: 'E = mc^2' }).run() },
  { title: 'Inline math', keywords: 'formula tex latex equation', run: (e, r) => chain(e, r).insertInlineMath({ latex: 'x^2' }).run() },
  { title: 'Embed', keywords: 'video url link iframe youtube', run: (e, r) => chain(e, r).insertContent({ type: 'embed' }).run() },
  { title: 'Page link', keywords: 'content ref card page', run: (e, r) => chain(e, r).insertContent({ type: 'contentRef' }).run() },
  {
    title: 'File',
    keywords: 'attachment upload download pdf',
    run: (e, r) => {
      chain(e, r).run();
      filePicker.pick?.(e, 'file');
    },
  },
];

export function filterItems(query: string): SlashItem[] {
  const q = query.toLowerCase().trim();
  return SLASH_ITEMS.filter((i) => !q || i.title.toLowerCase().includes(q) || i.keywords.includes(q)).slice(0, 24);
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
