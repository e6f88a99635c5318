import { Extension, InputRule, Mark, Node, mergeAttributes } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { Details, DetailsContent, DetailsSummary } from '@tiptap/extension-details';
import { BlockMath, InlineMath } from '@tiptap/extension-mathematics';
import { CONTENT, ContentRef, Embed, extraAttribute, FileBlock, Keyboard, Subscript, Superscript, Tab, Tabs, TabTitle } from './blocks.ts';
import type { HintStyle } from '@quire/document';
import { SlashCommands } from './slash.ts';

// The editor's schema: the document model's blocks (see convert.ts), with markdown shortcuts from
// the extensions' input rules (`# `, `- `, `1. `, `[ ] `, `> `, "```", `---`, `**b**`, `` `c` ``,
// `!!! ` for a hint, `$$a^2$$` for inline math, `$$$a^2$$$` alone on a line for a math block).

export const HINT_STYLES: HintStyle[] = ['info', 'warning', 'danger', 'success'];

declare module '@tiptap/react' {
  interface Commands<ReturnType> {
    hint: { setHint: (style: HintStyle) => ReturnType };
  }
}

/** GitBook's hint: a coloured callout holding blocks. `!!! ` (or `!!!warning `) at a line's start makes one. */
export const Hint = Node.create({
  name: 'hint',
  group: 'block',
  content: CONTENT.hint,
  defining: true,
  addAttributes: () => ({ style: { default: 'info', parseHTML: (el) => el.getAttribute('data-style') ?? 'info', renderHTML: (a) => ({ 'data-style': a.style }) } }),
  parseHTML: () => [{ tag: 'div[data-hint]' }],
  renderHTML({ HTMLAttributes, node }) {
    return ['div', mergeAttributes(HTMLAttributes, { 'data-hint': '', class: `hint hint-${node.attrs.style}`, role: 'note', 'aria-label': `${node.attrs.style} hint` }), 0];
  },
  addCommands() {
    return {
      setHint:
        (style) =>
        ({ commands }) =>
          commands.wrapIn(this.name, { style }),
    };
  },
  addInputRules() {
    return [
      new InputRule({
        find: /^!!!(info|warning|danger|success)?\s$/,
        handler: ({ range, match, chain }) => {
          chain()
            .deleteRange(range)
            .wrapIn(this.name, { style: match[1] ?? 'info' })
            .run();
        },
      }),
    ];
  },
});

/** A block the editor does not edit (card tables, OpenAPI, integrations…): kept whole, shown as a labelled card. */
export const OpaqueBlock = Node.create({
  name: 'gbBlock',
  group: 'block',
  atom: true,
  selectable: true,
  addAttributes: () => ({ block: { default: '{}' } }),
  parseHTML: () => [{ tag: 'div[data-gb-block]', getAttrs: (el) => ({ block: el.getAttribute('data-gb-block') }) }],
  renderHTML({ node }) {
    const type = (JSON.parse(node.attrs.block as string) as { type?: string }).type ?? 'block';
    return ['div', { 'data-gb-block': node.attrs.block, class: 'opaque', contenteditable: 'false' }, `${type} (edit in markdown source mode)`];
  },
});

/** An inline the editor does not edit (emoji, mention, button, annotation…), kept whole. */
export const OpaqueInline = Node.create({
  name: 'gbInline',
  group: 'inline',
  inline: true,
  atom: true,
  addAttributes: () => ({ inline: { default: '{}' } }),
  parseHTML: () => [{ tag: 'span[data-gb-inline]', getAttrs: (el) => ({ inline: el.getAttribute('data-gb-inline') }) }],
  renderHTML({ node }) {
    const inline = JSON.parse(node.attrs.inline as string) as { type?: string; data?: { code?: string; formula?: string } };
    return ['span', { 'data-gb-inline': node.attrs.inline, class: 'opaque-inline' }, inline.data?.code ?? inline.data?.formula ?? inline.type ?? '…'];
  },
});

/** A mark the editor does not edit (colour), kept on its text. */
export const OpaqueMark = Mark.create({
  name: 'gbMark',
  excludes: '',
  addAttributes: () => ({ mark: { default: '{}' } }),
  parseHTML: () => [{ tag: '[data-gb-mark]', getAttrs: (el) => ({ mark: el.getAttribute('data-gb-mark') }) }],
  // A colour as the document renderer writes it: `<mark class="color-red bg-yellow">`.
  renderHTML({ HTMLAttributes }) {
    const mark = JSON.parse(HTMLAttributes.mark as string) as { type?: string; data?: { text?: string; background?: string } };
    const classes =
      mark.type === 'color'
        ? [mark.data?.text && `color-${mark.data.text}`, mark.data?.background && `bg-${mark.data.background}`].filter((c) => c && !c.endsWith('-default'))
        : [];
    return ['mark', { 'data-gb-mark': HTMLAttributes.mark, class: ['marked', ...classes].join(' ').replaceAll('$', '') }, 0];
  },
});

/** Math rendered by KaTeX (as the document renderer does); a click asks for the TeX formula. */
function editableMath(math: typeof BlockMath | typeof InlineMath, update: 'updateBlockMath' | 'updateInlineMath', rendered: string) {
  return math.extend({
    // Also the renderer's math where it holds the TeX (`math: 'source'`, or KaTeX's MathML annotation);
    // KaTeX's HTML alone does not, and pastes as its text.
    parseHTML() {
      const tex = (el: HTMLElement) => (el.querySelector('annotation[encoding="application/x-tex"]') ?? el.querySelector('code'))?.textContent;
      return [...(this.parent?.() ?? []), { tag: rendered, getAttrs: (el) => (tex(el) ? { latex: tex(el) } : false) }];
    },
    addNodeView() {
      const render = this.parent!()!;
      return (props) => {
        const view = render(props);
        const dom = view.dom as HTMLElement;
        dom.title = 'Edit the formula';
        dom.addEventListener('click', () => {
          const latex = window.prompt('TeX formula', props.node.attrs.latex as string);
          const pos = props.getPos();
          if (latex !== null && pos !== undefined) props.editor.commands[update]({ latex, pos });
        });
        return view;
      };
    },
  });
}

export function extensions() {
  return [
    StarterKit.configure({
      underline: false,
      heading: { levels: [1, 2, 3] },
      link: { openOnClick: false, autolink: true },
      codeBlock: { HTMLAttributes: { spellcheck: 'false' } },
    }),
    // What the model holds beyond the editor's attributes: a heading's explicit anchor, the
    // content ref a link points at, a paragraph's alignment, a code block's title and options.
    Extension.create({
      name: 'modelAttributes',
      addGlobalAttributes: () => [
        { types: ['heading'], attributes: { anchor: { default: null, rendered: false } } },
        { types: ['link'], attributes: { ref: { default: null, rendered: false } } },
        { types: ['paragraph'], attributes: { align: { default: null, rendered: false } } },
        { types: ['codeBlock'], attributes: { extra: { default: null, rendered: false } } },
      ],
    }),
    Image.configure({ inline: false, allowBase64: false }).extend({
      addAttributes() {
        return { ...this.parent?.(), ref: { default: null, rendered: false }, extra: { default: null, rendered: false } };
      },
    }),
    TaskList,
    TaskItem.configure({ nested: true }),
    Table.extend({ addAttributes: () => extraAttribute }),
    TableRow.extend({ addAttributes: () => ({ record: { default: null, rendered: false }, orderIndex: { default: null, rendered: false }, ...extraAttribute }) }),
    ...[TableHeader, TableCell].map((cell) =>
      cell.extend({
        addAttributes() {
          return { ...this.parent?.(), column: { default: null, rendered: false }, fragment: { default: null, rendered: false } };
        },
      }),
    ),
    // Expandables stay open while editing (`open` is the editor's, not the document's).
    Details.configure({ persist: true, HTMLAttributes: { class: 'expandable' } }).extend({
      addAttributes() {
        return { ...this.parent?.(), open: { default: true, rendered: false }, ...extraAttribute };
      },
    }),
    // The title holds inline content (marks, math), as the model's title paragraph does.
    DetailsSummary.extend({ content: 'inline*' }),
    DetailsContent.extend({ content: CONTENT.expandableBody }),
    editableMath(BlockMath.configure({ katexOptions: { displayMode: true, throwOnError: false } }), 'updateBlockMath', 'div.math-display'),
    editableMath(InlineMath.configure({ katexOptions: { throwOnError: false } }), 'updateInlineMath', 'span.math-inline'),
    Tabs,
    Tab,
    TabTitle,
    Embed,
    FileBlock,
    ContentRef,
    Keyboard,
    Superscript,
    Subscript,
    Hint,
    OpaqueBlock,
    OpaqueInline,
    OpaqueMark,
    SlashCommands,
  ];
}
