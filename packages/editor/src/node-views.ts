import type { Editor, NodeViewRenderer } from '@tiptap/core';
import type { Node as PMNodeType } from '@tiptap/pm/model';
import { NodeSelection, Selection } from '@tiptap/pm/state';
import type { ContentRef as Ref } from '@quire/document';
import type { Action, Choices, Control, Field, Json } from './fields.ts';

// The node views of the blocks and inlines edited through their fields (fields.ts): a card of
// fields for a block, a panel below an inline atom while it is selected.

/** Sets attributes of the node at `getPos()`, if it is still in the document. */
export function setAttrs(editor: Editor, getPos: () => number | undefined, attrs: Record<string, unknown>) {
  const pos = getPos();
  if (pos === undefined) return;
  editor
    .chain()
    .command(({ tr }) => {
      const node = tr.doc.nodeAt(pos);
      if (!node) return false;
      const selected = tr.selection instanceof NodeSelection && tr.selection.from === pos;
      tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...attrs });
      // An atom's new markup replaces it: it stays selected (its fields stay open).
      if (selected) tr.setSelection(NodeSelection.create(tr.doc, pos));
      return true;
    })
    .run();
}

export const button = (label: string, onClick: () => void) => {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn small';
  b.contentEditable = 'false';
  b.textContent = label;
  b.onmousedown = (e) => e.preventDefault();
  b.onclick = onClick;
  return b;
};

/** Set when a command inserts a node and selects it: that node's view focuses its first field. */
let focusOnSelect = false;
export const focusFieldsOnSelect = () => {
  focusOnSelect = true;
};
const takeFocus = () => {
  const take = focusOnSelect;
  focusOnSelect = false;
  return take;
};

/** How a node view reads its fields' JSON from the node and writes it back as attributes. */
export interface Binding {
  value(node: PMNodeType): Json;
  attrs(value: Json): Record<string, unknown>;
}
/** The node's attributes are the fields' JSON. */
export const byAttrs: Binding = { value: (node) => node.attrs, attrs: (value) => value };
/** The node holds the model's JSON in one attribute (`block`, `inline`). */
export const byJson = (attr: string): Binding => ({ value: (node) => JSON.parse(node.attrs[attr] as string) as Json, attrs: (value) => ({ [attr]: JSON.stringify(value) }) });

/** Numbers the notes that describe fields (their ids, for aria-describedby). */
let notes = 0;

/**
 * Labelled controls for the node's fields, and buttons for its actions, appended to `parent`;
 * each edit writes the node's attributes. `sync` shows the node as it is now, and builds the
 * controls again when its fields change (an image added to side-by-side images brings its own).
 */
export function controls(editor: Editor, getPos: () => number | undefined, fieldsOf: (value: Json) => Control[], binding: Binding, current: () => PMNodeType, parent: HTMLElement) {
  const edit = (after: Json, before: Json) => {
    if (after !== before) setAttrs(editor, getPos, binding.attrs(after));
  };
  const fieldControl = (f: Field) => {
    const label = document.createElement('label');
    const name = document.createElement('span');
    name.textContent = f.label;
    const control = f.options ? document.createElement('select') : f.multiline ? document.createElement('textarea') : document.createElement('input');
    label.append(name, control);
    // Why the field is read-only, or why the text typed is not written: said next to it and read out with it.
    const readOnly = f.readOnly;
    const note =
      readOnly !== undefined || f.check
        ? Object.assign(document.createElement('small'), { className: 'field-note', id: `field-note-${++notes}`, textContent: readOnly ?? '' })
        : undefined;
    if (note) {
      if (f.check) note.setAttribute('aria-live', 'polite');
      control.setAttribute('aria-describedby', note.id);
    }
    if (readOnly !== undefined && !(control instanceof HTMLSelectElement)) control.readOnly = true;
    control.addEventListener(f.options ? 'change' : 'input', () => {
      if (readOnly !== undefined) return;
      const problem = f.check?.(control.value);
      if (note) note.textContent = problem ?? '';
      control.toggleAttribute('aria-invalid', problem !== undefined);
      if (problem !== undefined) return;
      const before = binding.value(current());
      edit(f.write(before, control.value), before);
    });
    const element = note ? Object.assign(document.createElement('div'), { className: 'field' }) : label;
    if (note) element.append(label, note);
    const sync = (value: Json) => {
      const text = f.read(value);
      if (control instanceof HTMLSelectElement) {
        const options = f.options!(value, editor.storage.choices);
        if (!options.some(([v]) => v === text)) options.unshift([text, text ? `Other: ${text}` : 'Choose…']);
        control.replaceChildren(...options.map(([v, l]) => Object.assign(document.createElement('option'), { value: v, textContent: l })));
      }
      if (document.activeElement !== control) control.value = text;
    };
    return { element, control, sync };
  };
  const actionControl = (a: Action) => {
    const control = button(a.label, () => {
      const before = binding.value(current());
      const after = a.apply(before);
      if (after) edit(after, before);
    });
    const sync = (value: Json) => {
      control.disabled = a.apply(value) === undefined;
    };
    return { element: control, control, sync };
  };
  let shape: string | undefined;
  let made: { element: HTMLElement; control: HTMLElement; sync(value: Json): void }[] = [];
  const sync = () => {
    const value = binding.value(current());
    const list = fieldsOf(value);
    // By label only: a control the writer is typing in stays (a cell's markdown field stays one while its text turns plain).
    const key = list.map((c) => c.label).join('\n');
    if (key !== shape) {
      shape = key;
      for (const m of made) m.element.remove();
      made = list.map((c) => ('apply' in c ? actionControl(c) : fieldControl(c)));
      parent.append(...made.map((m) => m.element));
    }
    for (const m of made) m.sync(value);
  };
  return { first: () => made[0]?.control, sync };
}

/**
 * An atom block shown as a card of labelled fields (an embed's URL, a page link's target, an
 * OpenAPI operation's spec…), with a rendered preview where the block has one. A node just
 * inserted by a command focuses its first field.
 */
export function cardView(
  className: string,
  heading: (value: Json) => string,
  fieldsOf: (value: Json) => Control[],
  binding: Binding = byAttrs,
  preview?: Preview,
): NodeViewRenderer {
  return ({ node: initial, editor, getPos }) => {
    let node = initial;
    const dom = document.createElement('div');
    dom.className = `${className} card-block`;
    dom.contentEditable = 'false';
    const title = document.createElement('div');
    title.className = 'card-block-title';
    const shown = document.createElement('div');
    shown.className = 'card-block-preview document';
    dom.append(title, ...(preview ? [shown] : []));
    const { first, sync: syncFields } = controls(editor, getPos, fieldsOf, binding, () => node, dom);
    let previewed = '';
    const sync = () => {
      const value = binding.value(node);
      title.textContent = heading(value);
      const key = JSON.stringify(value);
      if (preview && key !== previewed) {
        previewed = key;
        void preview(value, editor.storage.choices, shown);
      }
      syncFields();
    };
    sync();
    return {
      dom,
      selectNode() {
        dom.classList.add('ProseMirror-selectednode');
        if (takeFocus()) requestAnimationFrame(() => first()?.focus());
      },
      deselectNode: () => dom.classList.remove('ProseMirror-selectednode'),
      stopEvent: (e) => e.target instanceof HTMLElement && e.target !== dom && dom.contains(e.target),
      ignoreMutation: () => true,
      update(next) {
        if (next.type !== node.type) return false;
        node = next;
        sync();
        return true;
      },
    };
  };
}

/** Fills `into` with the node rendered. */
export type Preview = (value: Json, choices: Editor['storage']['choices'], into: HTMLElement) => void | Promise<void>;

/** A text attribute of the node. */
export const attrField = (attr: string, label: string): Field => ({ label, read: (attrs) => String(attrs[attr] ?? ''), write: (attrs, text) => ({ ...attrs, [attr]: text }) });

/** Where a ref's file or URL loads from, for previews. */
export const refUrl = (choices: Choices) => (ref: Ref) => (ref.kind === 'file' ? choices.files.find((f) => f.id === ref.file)?.url : ref.kind === 'url' ? ref.url : undefined);

/**
 * An inline atom shown rendered, with its fields in a small panel while it is selected (a click,
 * or the arrow keys onto it): math's TeX, an emoji, a mention's target, a button's label and
 * link, an inline image's caption and size.
 */
export function popoverView(
  tag: 'span' | 'div',
  name: (value: Json) => string,
  render: (value: Json, choices: Editor['storage']['choices'], into: HTMLElement) => void,
  fieldsOf: (value: Json) => Field[],
  binding: Binding,
): NodeViewRenderer {
  return ({ node: initial, editor, getPos }) => {
    let node = initial;
    const dom: HTMLElement = document.createElement(tag);
    dom.className = 'with-fields';
    const shown: HTMLElement = document.createElement(tag);
    const panel: HTMLElement = document.createElement(tag);
    panel.className = 'field-panel';
    panel.setAttribute('role', 'group');
    panel.hidden = true;
    panel.contentEditable = 'false';
    const { first, sync: syncFields } = controls(editor, getPos, fieldsOf, binding, () => node, panel);
    dom.append(shown, panel);
    let rendered = '';
    const sync = () => {
      const value = binding.value(node);
      const key = JSON.stringify(value);
      if (key !== rendered) {
        rendered = key;
        render(value, editor.storage.choices, shown);
        panel.setAttribute('aria-label', name(value));
      }
      syncFields();
    };
    sync();
    // Leaving the panel (not into the editor's own node selection) closes it.
    panel.addEventListener('focusout', (e) => {
      if (!(e.relatedTarget instanceof globalThis.Node && panel.contains(e.relatedTarget))) panel.hidden = !dom.classList.contains('ProseMirror-selectednode');
    });
    // Enter or Escape: back to writing, just after the node.
    panel.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' && (e.key !== 'Enter' || e.target instanceof HTMLTextAreaElement)) return;
      e.preventDefault();
      panel.hidden = true;
      const pos = getPos();
      // Focused now, not on the next frame as tiptap's focus command does: keys typed right after
      // Enter belong to the text.
      editor.view.focus();
      editor
        .chain()
        .command(({ tr }) => {
          if (pos !== undefined) tr.setSelection(Selection.near(tr.doc.resolve(Math.min(pos + node.nodeSize, tr.doc.content.size))));
          return true;
        })
        .run();
    });
    return {
      dom,
      stopEvent: (e) => e.target instanceof globalThis.Node && panel.contains(e.target),
      ignoreMutation: () => true,
      selectNode() {
        dom.classList.add('ProseMirror-selectednode');
        panel.hidden = false;
        if (takeFocus()) requestAnimationFrame(() => first()?.focus());
      },
      deselectNode() {
        dom.classList.remove('ProseMirror-selectednode');
        if (!panel.contains(document.activeElement)) panel.hidden = true;
      },
      update(next) {
        if (next.type !== node.type) return false;
        node = next;
        sync();
        return true;
      },
    };
  };
}
