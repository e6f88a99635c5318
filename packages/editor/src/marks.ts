import { getMarkAttributes, Mark } from '@tiptap/core';
import type { MarkColorName } from '@quire/document';
import { annotationText, type Json } from './fields.ts';

// The model's marks tiptap has none for: keyboard, superscript, subscript, colour and annotation,
// in the document renderer's markup (`kbd`, `sup`, `sub`, `mark.color-*`, `span.annotation`).

const simpleMark = (name: string, tag: string, shortcut?: string) =>
  Mark.create({
    name,
    parseHTML: () => [{ tag }],
    renderHTML: ({ HTMLAttributes }) => [tag, HTMLAttributes, 0],
    addKeyboardShortcuts() {
      return shortcut ? { [shortcut]: () => this.editor.commands.toggleMark(this.name) } : {};
    },
  });

export const Keyboard = simpleMark('keyboard', 'kbd', 'Mod-Shift-k');
export const Superscript = simpleMark('superscript', 'sup', 'Mod-.');
export const Subscript = simpleMark('subscript', 'sub', 'Mod-,');

export const COLORS: MarkColorName[] = ['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', '$primary', '$info', '$success', '$warning', '$danger'];

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    color: { setColor: (colors: { text?: MarkColorName; background?: MarkColorName }) => ReturnType };
  }
}

/** GitBook's colour mark: a text colour and a background, as the renderer writes it (`<mark class="color-red bg-yellow">`). */
export const Color = Mark.create({
  name: 'color',
  addAttributes: () => ({ text: { default: 'default', rendered: false }, background: { default: 'default', rendered: false } }),
  parseHTML: () => [
    {
      tag: 'mark',
      getAttrs: (el) => {
        const named = (prefix: string) => {
          const name = [...el.classList].find((c) => c.startsWith(prefix))?.slice(prefix.length);
          return COLORS.find((c) => c.replace('$', '') === name) ?? 'default';
        };
        return { text: named('color-'), background: named('bg-') };
      },
    },
  ],
  renderHTML: ({ mark }) => {
    const classes = [`color-${String(mark.attrs.text)}`, `bg-${String(mark.attrs.background)}`].filter((c) => !c.endsWith('-default'));
    return ['mark', classes.length ? { class: classes.join(' ').replaceAll('$', '') } : {}, 0];
  },
  addCommands() {
    return {
      setColor:
        (colors) =>
        ({ state, chain }) => {
          // The chain's state: a selection set earlier in the same chain counts.
          const next = { text: 'default', background: 'default', ...getMarkAttributes(state, this.name), ...colors };
          return next.text === 'default' && next.background === 'default' ? chain().unsetMark(this.name).run() : chain().setMark(this.name, next).run();
        },
    };
  },
});

/** GitBook's annotation: text with a note; `note` holds the model's annotation (its body) as JSON. */
export const Annotation = Mark.create({
  name: 'annotation',
  excludes: 'annotation link',
  addAttributes: () => ({ note: { default: null, rendered: false } }),
  parseHTML: () => [{ tag: 'span.annotation[data-note]', getAttrs: (el) => ({ note: el.getAttribute('data-note') }) }],
  renderHTML: ({ mark }) => ['span', { class: 'annotation', 'data-note': mark.attrs.note, title: annotationText(JSON.parse(String(mark.attrs.note ?? '{}')) as Json) }, 0],
});
