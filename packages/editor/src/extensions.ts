import { Extension, InputRule, Node, mergeAttributes, type Editor } from '@tiptap/core';
import { NO_CHOICES } from './fields.ts';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { Details, DetailsContent, DetailsSummary } from '@tiptap/extension-details';
import { BlockMath, InlineMath } from '@tiptap/extension-mathematics';
import { CONTENT, ContentRef, Embed, extraAttribute, FileBlock, ModelBlock, SpaceChoices, Tab, Tabs, TabTitle } from './blocks.ts';
import { mathView, ModelInline } from './inlines.ts';
import { Annotation, Color, Keyboard, Subscript, Superscript } from './marks.ts';
import type { HintStyle } from '@quire/document';
import { SlashCommands } from './slash.ts';

// The editor's schema: the document model's blocks (see convert.ts), with markdown shortcuts from
// the extensions' input rules (`# `, `- `, `1. `, `[ ] `, `> `, "```", `---`, `**b**`, `` `c` ``,
// `!!! ` for a hint, `$$a^2$$` for inline math, `$$$a^2$$$` alone on a line for a math block).

export const HINT_STYLES: HintStyle[] = ['info', 'warning', 'danger', 'success'];

declare module '@tiptap/core' {
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

/** Math as the renderer writes it where it holds the TeX (`math: 'source'`, or KaTeX's MathML annotation); KaTeX's HTML alone does not, and pastes as its text. Edited in place (blocks.ts). */
function editableMath(math: typeof BlockMath | typeof InlineMath, rendered: string, display: boolean) {
  return math.extend({
    parseHTML() {
      const tex = (el: HTMLElement) => (el.querySelector('annotation[encoding="application/x-tex"]') ?? el.querySelector('code'))?.textContent;
      return [...(this.parent?.() ?? []), { tag: rendered, getAttrs: (el) => (tex(el) ? { latex: tex(el) } : false) }];
    },
    addNodeView: () => mathView(display),
  });
}

/**
 * The editor's extensions; `choices` are what its pickers offer when it opens (the page updates
 * them later). Without `history`, undo is left to the extension that brings it (collaboration's).
 */
export function extensions(choices: Editor['storage']['choices'] = NO_CHOICES, { history = true } = {}) {
  return [
    StarterKit.configure({
      ...(history ? {} : { undoRedo: false as const }),
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
        content: CONTENT.tableCell,
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
    editableMath(BlockMath, 'div.math-display', true),
    editableMath(InlineMath, 'span.math-inline', false),
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
    ModelBlock,
    ModelInline,
    Color,
    Annotation,
    SpaceChoices.configure({ choices }),
    SlashCommands,
  ];
}
