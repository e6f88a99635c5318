import { Extension, getMarkAttributes, Mark, Node, mergeAttributes, type Editor, type NodeViewRenderer } from '@tiptap/react';
import type { Node as PMNodeType } from '@tiptap/pm/model';
import { NodeSelection, Selection, TextSelection } from '@tiptap/pm/state';
import katex from 'katex';
import { emojiText, toHtml, type ContentRef as Ref, type MarkColorName, type TopLevelBlock } from '@quire/document';
import { annotationText, blockFields, inlineFields, NO_CHOICES, refValue, type Action, type Choices, type Control, type Field, type Json } from './fields.ts';

// The document model's blocks that tiptap has no extension for: tabs, embeds, files, page links
// (content refs), the blocks and inlines kept as the model's JSON and edited through their fields
// (fields.ts), math's in-place TeX panel, and the keyboard, superscript, subscript, colour and
// annotation marks. Their look follows the document renderer's markup (packages/document's
// toHtml): `section.tabs-item` (in a `div.tabs-block`), `div.embed`, `div.file`, `div.content-ref`,
// `kbd`, `sup`, `sub`, `mark.color-*`; pasted HTML in that markup (a published page's) parses back
// into these nodes.

// Where a block may sit, as GitBook's schema says (packages/document's fit.ts): the editor's
// content expressions, so a writer cannot nest what the model does not allow.
const ESSENTIALS = 'paragraph | heading | bulletList | orderedList | taskList | horizontalRule';
export const CONTENT = {
  hint: `(${ESSENTIALS})+`,
  tab: `tabTitle (${ESSENTIALS} | contentRef | codeBlock | embed | file | image | hint | blockquote | blockMath | gbBlock)+`,
  expandableBody: `(${ESSENTIALS} | image | codeBlock | table | hint | blockquote | gbBlock)+`,
  // A table cell's fragment: paragraphs (any inline content), lists and code blocks, as GitBook's
  // tables hold them (packages/document's html-cells.ts and html-table.ts).
  tableCell: '(paragraph | bulletList | orderedList | codeBlock)+',
};

declare module '@tiptap/react' {
  interface Commands<ReturnType> {
    tabs: { insertTabs: () => ReturnType; addTab: (tabsPos: number) => ReturnType; removeTab: (tabPos: number) => ReturnType };
  }
  interface Storage {
    choices: Choices & { render?: RenderReusable };
  }
}

/** A reusable content's body as HTML (fetched by the page; the editor shows it rendered). */
export type RenderReusable = (reusableContentId: string) => Promise<string>;

/** What the pickers offer: pages, members, files, reusable contents (set by the page holding the editor). */
export const SpaceChoices = Extension.create<{ choices: Editor['storage']['choices'] }>({
  name: 'choices',
  addOptions: () => ({ choices: NO_CHOICES }),
  addStorage() {
    return { ...this.options.choices };
  },
});

/** Attributes the model holds that the editor carries without showing: a JSON string, or null. */
export const extraAttribute = { extra: { default: null, rendered: false } };

/** Sets attributes of the node at `getPos()`, if it is still in the document. */
function setAttrs(editor: Editor, getPos: () => number | undefined, attrs: Record<string, unknown>) {
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

const button = (label: string, onClick: () => void) => {
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
interface Binding {
  value(node: PMNodeType): Json;
  attrs(value: Json): Record<string, unknown>;
}
/** The node's attributes are the fields' JSON. */
const byAttrs: Binding = { value: (node) => node.attrs, attrs: (value) => value };
/** The node holds the model's JSON in one attribute (`block`, `inline`). */
const byJson = (attr: string): Binding => ({ value: (node) => JSON.parse(node.attrs[attr] as string) as Json, attrs: (value) => ({ [attr]: JSON.stringify(value) }) });

/** Numbers the notes that describe fields (their ids, for aria-describedby). */
let notes = 0;

/**
 * Labelled controls for the node's fields, and buttons for its actions, appended to `parent`;
 * each edit writes the node's attributes. `sync` shows the node as it is now, and builds the
 * controls again when its fields change (an image added to side-by-side images brings its own).
 */
function controls(editor: Editor, getPos: () => number | undefined, fieldsOf: (value: Json) => Control[], binding: Binding, current: () => PMNodeType, parent: HTMLElement) {
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
function cardView(className: string, heading: (value: Json) => string, fieldsOf: (value: Json) => Control[], binding: Binding = byAttrs, preview?: Preview): NodeViewRenderer {
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
type Preview = (value: Json, choices: Editor['storage']['choices'], into: HTMLElement) => void | Promise<void>;

/** A text attribute of the node. */
const attrField = (attr: string, label: string): Field => ({ label, read: (attrs) => String(attrs[attr] ?? ''), write: (attrs, text) => ({ ...attrs, [attr]: text }) });

const atomBlock = { group: 'block', atom: true, selectable: true, draggable: true } as const;

/** `{% embed url="…" %}caption{% endembed %}`: a link to outside content. */
export const Embed = Node.create({
  name: 'embed',
  ...atomBlock,
  addAttributes: () => ({ url: { default: '' }, caption: { default: '' }, ...extraAttribute }),
  parseHTML: () => [
    { tag: 'div[data-embed]' },
    {
      tag: 'div.embed',
      getAttrs: (el) => {
        const a = el.querySelector('a');
        const url = a?.getAttribute('href');
        return url ? { url, caption: a!.textContent === url ? '' : a!.textContent } : false;
      },
    },
  ],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-embed': '', class: 'embed' })],
  addNodeView: () =>
    cardView(
      'embed',
      () => 'Embed',
      () => [attrField('url', 'URL'), attrField('caption', 'Caption')],
    ),
});

/** A downloadable file from the space's files (`ref`, a content ref as JSON) with a caption. */
export const FileBlock = Node.create({
  name: 'file',
  ...atomBlock,
  addAttributes: () => ({ ref: { default: null }, name: { default: '' }, caption: { default: '' } }),
  parseHTML: () => [{ tag: 'div[data-file]' }],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-file': '', class: 'file' })],
  addNodeView: () =>
    cardView(
      'file',
      (attrs) => `File: ${String(attrs.name || 'unnamed')}`,
      () => [attrField('caption', 'Caption')],
    ),
});

/** The page a page link points at, or its URL. */
function linkedPage(attrs: Json): string {
  const ref = attrs.ref ? (JSON.parse(attrs.ref as string) as { kind: string; page?: string; url?: string }) : undefined;
  return ref?.kind === 'page' ? ref.page! : (ref?.url ?? '');
}

/** A page link card (`{% content-ref %}`): `ref` is the content ref as JSON; the writer picks a page. */
export const ContentRef = Node.create({
  name: 'contentRef',
  ...atomBlock,
  addAttributes: () => ({ ref: { default: null } }),
  parseHTML: () => [
    { tag: 'div[data-content-ref]' },
    {
      tag: 'div.content-ref',
      getAttrs: (el) => {
        const url = el.querySelector('a')?.getAttribute('href');
        return url ? { ref: JSON.stringify({ kind: 'url', url }) } : false;
      },
    },
  ],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-content-ref': '', class: 'content-ref' })],
  addNodeView: () =>
    cardView(
      'content-ref',
      () => 'Page link',
      () => [
        {
          label: 'Page',
          options: (_attrs, choices) => choices.pages.map((p) => [p.id, p.title]),
          read: linkedPage,
          // Choosing the "other" entry again keeps the link as it was.
          write: (attrs, page) => (page === linkedPage(attrs) ? attrs : { ...attrs, ref: JSON.stringify({ kind: 'page', page }) }),
        },
      ],
    ),
});

/** A tab's title: plain text, the first child of each tab. */
export const TabTitle = Node.create({
  name: 'tabTitle',
  content: 'text*',
  marks: '',
  defining: true,
  parseHTML: () => [{ tag: 'div.tabs-item-title' }],
  renderHTML: () => ['div', { class: 'tabs-item-title' }, 0],
});

export const Tab = Node.create({
  name: 'tab',
  content: CONTENT.tab,
  defining: true,
  isolating: true,
  addAttributes: () => extraAttribute,
  parseHTML: () => [{ tag: 'section.tabs-item' }],
  renderHTML: ({ HTMLAttributes }) => ['section', mergeAttributes(HTMLAttributes, { class: 'tabs-item' }), 0],
  addNodeView:
    () =>
    ({ editor, getPos }) => {
      const dom = document.createElement('section');
      dom.className = 'tabs-item';
      const content = document.createElement('div');
      const remove = button('Remove tab', () => {
        const pos = getPos();
        if (pos !== undefined) editor.commands.removeTab(pos);
      });
      remove.classList.add('tab-remove');
      dom.append(remove, content);
      return { dom, contentDOM: content, ignoreMutation: (m) => m.type !== 'selection' && !content.contains(m.target) };
    },
});

/** GitBook's tabs: each tab a title and blocks. Shown stacked, as the renderer does. */
export const Tabs = Node.create({
  name: 'tabs',
  group: 'block',
  content: 'tab+',
  defining: true,
  isolating: true,
  addAttributes: () => extraAttribute,
  parseHTML: () => [{ tag: 'div.tabs-block' }, { tag: 'div.tabs' }],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { class: 'tabs-block' }), 0],
  addNodeView:
    () =>
    ({ editor, getPos }) => {
      const dom = document.createElement('div');
      // Not `.tabs`: the app's tab bars have that class.
      dom.className = 'tabs-block';
      const content = document.createElement('div');
      dom.append(
        content,
        button('Add tab', () => {
          const pos = getPos();
          if (pos !== undefined) editor.chain().focus().addTab(pos).run();
        }),
      );
      return { dom, contentDOM: content, ignoreMutation: (m) => m.type !== 'selection' && !content.contains(m.target) };
    },
  addCommands() {
    const tab = (title: string) => ({ type: 'tab', content: [{ type: 'tabTitle', content: [{ type: 'text', text: title }] }, { type: 'paragraph' }] });
    return {
      insertTabs:
        () =>
        ({ chain }) =>
          chain()
            .insertContent({ type: 'tabs', content: [tab('Tab 1'), tab('Tab 2')] })
            .run(),
      addTab:
        (tabsPos) =>
        ({ tr, state, dispatch }) => {
          const tabs = tr.doc.nodeAt(tabsPos);
          if (tabs?.type.name !== 'tabs') return false;
          const end = tabsPos + tabs.nodeSize - 1;
          if (dispatch) {
            const title = `Tab ${tabs.childCount + 1}`;
            tr.insert(end, state.schema.nodeFromJSON(tab(title)));
            // The new tab's title selected, ready to be typed over.
            tr.setSelection(TextSelection.create(tr.doc, end + 2, end + 2 + title.length));
          }
          return true;
        },
      removeTab:
        (tabPos) =>
        ({ tr }) => {
          const $pos = tr.doc.resolve(tabPos);
          const tabs = $pos.parent;
          const tab = tr.doc.nodeAt(tabPos);
          if (tab?.type.name !== 'tab' || tabs.type.name !== 'tabs') return false;
          // The last tab goes with its tabs block.
          if (tabs.childCount === 1) tr.delete($pos.before(), $pos.after());
          else tr.delete(tabPos, tabPos + tab.nodeSize);
          return true;
        },
    };
  },
});

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

/** Where a ref's file or URL loads from, for previews. */
const refUrl = (choices: Choices) => (ref: Ref) => (ref.kind === 'file' ? choices.files.find((f) => f.id === ref.file)?.url : ref.kind === 'url' ? ref.url : undefined);

const BLOCK_TITLES: Record<string, string> = {
  images: 'Side-by-side images',
  table: 'Table',
  swagger: 'OpenAPI operation',
  integration: 'Integration block',
  drawing: 'Drawing',
  'reusable-content': 'Reusable content',
};

/** A block rendered as the reader shows it; reusable content as its body, fetched by the page. */
const blockPreview: Preview = async (value, choices, into) => {
  if (value.type !== 'reusable-content') {
    into.innerHTML = toHtml({ object: 'document', data: {}, nodes: [value as unknown as TopLevelBlock] }, { refToUrl: refUrl(choices) });
    return;
  }
  const id = (value.data as { ref?: { reusableContent?: string } }).ref?.reusableContent;
  into.dataset.showing = id ?? '';
  into.textContent = id ? 'Loading…' : '';
  const html = id && choices.render ? await choices.render(id).catch(() => 'This reusable content could not be loaded.') : '';
  // A newer choice may have been made meanwhile.
  if (into.dataset.showing === (id ?? '')) into.innerHTML = html;
};

/**
 * A block the editor shows as a card of its fields (OpenAPI operations, integrations, drawings,
 * reusable content, side-by-side images, card and typed tables), kept whole as the model's JSON:
 * a field's edit changes its part of it, nothing else.
 */
export const ModelBlock = Node.create({
  name: 'gbBlock',
  ...atomBlock,
  addAttributes: () => ({ block: { default: '{}' } }),
  parseHTML: () => [{ tag: 'div[data-gb-block]', getAttrs: (el) => ({ block: el.getAttribute('data-gb-block') }) }],
  renderHTML: ({ node }) => ['div', { 'data-gb-block': node.attrs.block, class: 'model-block' }],
  addNodeView: () =>
    cardView(
      'model-block',
      (value) => BLOCK_TITLES[String(value.type)] ?? `${String(value.type)} (edit in markdown source mode)`,
      (value) => blockFields(value) ?? [],
      byJson('block'),
      blockPreview,
    ),
});

/**
 * An inline atom shown rendered, with its fields in a small panel while it is selected (a click,
 * or the arrow keys onto it): math's TeX, an emoji, a mention's target, a button's label and
 * link, an inline image's caption and size.
 */
function popoverView(
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

const INLINE_NAMES: Record<string, string> = { icon: 'Icon', emoji: 'Emoji', mention: 'Mention', button: 'Button', 'inline-image': 'Inline image' };

function renderInline(value: Json, choices: Choices, into: HTMLElement) {
  const data = (value.data ?? {}) as Record<string, unknown>;
  const ref = data.ref as Ref | undefined;
  into.replaceChildren();
  into.className = '';
  switch (value.type) {
    case 'emoji':
      into.textContent = emojiText(String(data.code ?? ''));
      return;
    case 'mention': {
      const found = ref?.kind === 'user' ? choices.users.find((u) => u.id === ref.user) : ref?.kind === 'page' ? choices.pages.find((p) => p.id === ref.page) : undefined;
      into.className = 'mention';
      // A target the space does not list shows its id or URL; none yet, an ellipsis.
      into.textContent = `@${(found?.title ?? (ref ? refValue(ref).replace(/^\w+:/, '') : '')) || '…'}`;
      return;
    }
    case 'button':
      into.className = `button button-${String(data.kind)}`;
      into.textContent = String(data.label ?? '');
      return;
    case 'inline-image': {
      const img = document.createElement('img');
      img.src = (ref && refUrl(choices)(ref)) ?? '';
      img.alt = String(data.caption ?? '');
      if (data.size) img.className = `inline-image-${String(data.size)}`;
      into.append(img);
      return;
    }
    default:
      // Icons (their name) and expressions: their text.
      into.textContent = String(data.icon ?? data.expression ?? value.type ?? '…');
  }
}

/** The model's void inlines (emoji, mentions, buttons, inline images, icons; expressions, shown only), kept whole as JSON. */
export const ModelInline = Node.create({
  name: 'gbInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => ({ inline: { default: '{}' } }),
  parseHTML: () => [{ tag: 'span[data-gb-inline]', getAttrs: (el) => ({ inline: el.getAttribute('data-gb-inline') }) }],
  renderHTML: ({ node }) => ['span', { 'data-gb-inline': node.attrs.inline }],
  addNodeView: () =>
    popoverView(
      'span',
      (value) => INLINE_NAMES[String(value.type)] ?? String(value.type),
      renderInline,
      (value) => inlineFields(value) ?? [],
      byJson('inline'),
    ),
});

/** Math (block and inline), rendered by KaTeX as the document renderer does; its TeX is edited in the panel, previewed as one types. */
export const mathView = (display: boolean) =>
  popoverView(
    display ? 'div' : 'span',
    () => (display ? 'Math block' : 'Inline math'),
    (value, _choices, into) => katex.render(String(value.latex ?? ''), into, { displayMode: display, throwOnError: false }),
    () => [{ ...attrField('latex', 'TeX formula'), multiline: display }],
    byAttrs,
  );

export const COLORS: MarkColorName[] = ['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', '$primary', '$info', '$success', '$warning', '$danger'];

declare module '@tiptap/react' {
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
