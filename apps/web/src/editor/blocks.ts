import { Mark, Node, mergeAttributes, type Editor, type NodeViewRenderer } from '@tiptap/react';
import type { Node as PMNodeType } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';

// The document model's blocks that tiptap has no extension for: tabs, embeds, files, page links
// (content refs) and the keyboard, superscript and subscript marks. Their look follows the
// document renderer's markup (packages/document's toHtml): `section.tabs-item` (in a `div.tabs-block`),
// `div.embed`, `div.file`, `div.content-ref`, `kbd`, `sup`, `sub`; pasted HTML in that markup (a
// published page's) parses back into these nodes.

// Where a block may sit, as GitBook's schema says (packages/document's fit.ts): the editor's
// content expressions, so a writer cannot nest what the model does not allow.
const ESSENTIALS = 'paragraph | heading | bulletList | orderedList | taskList | horizontalRule';
export const CONTENT = {
  hint: `(${ESSENTIALS})+`,
  tab: `tabTitle (${ESSENTIALS} | contentRef | codeBlock | embed | file | image | hint | blockquote | blockMath | gbBlock)+`,
  expandableBody: `(${ESSENTIALS} | image | codeBlock | table | hint | blockquote | gbBlock)+`,
};

/** A page a content ref can point at. */
export interface PageChoice {
  id: string;
  title: string;
}

declare module '@tiptap/react' {
  interface Commands<ReturnType> {
    tabs: { insertTabs: () => ReturnType; addTab: (tabsPos: number) => ReturnType; removeTab: (tabPos: number) => ReturnType };
  }
  interface Storage {
    contentRef: { pages: PageChoice[] };
  }
}

/** Attributes the model holds that the editor carries without showing: a JSON string, or null. */
export const extraAttribute = { extra: { default: null, rendered: false } };

/** Calls `change` with the node's position, if the node is still in the document. */
function setAttrs(editor: Editor, getPos: () => number | undefined, attrs: Record<string, unknown>) {
  const pos = getPos();
  if (pos === undefined) return;
  editor
    .chain()
    .command(({ tr }) => {
      const node = tr.doc.nodeAt(pos);
      if (!node) return false;
      tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...attrs });
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

interface Field {
  attr: string;
  label: string;
  /** A select's options for the node (value, label); a text input without. */
  options?: (node: PMNodeType, editor: Editor) => [string, string][];
  read?: (node: PMNodeType) => string;
  write?: (value: string, node: PMNodeType, editor: Editor) => Record<string, unknown>;
}

/**
 * An atom block shown as a card of labelled fields (an embed's URL, a file's caption, a page
 * link's target); each edit sets the node's attributes. A new node (its first field empty) takes focus.
 */
function cardView(className: string, heading: (node: PMNodeType) => string, fields: Field[]): NodeViewRenderer {
  return ({ node: initial, editor, getPos }) => {
    let node = initial;
    const dom = document.createElement('div');
    dom.className = `${className} card-block`;
    dom.contentEditable = 'false';
    const title = document.createElement('div');
    title.className = 'card-block-title';
    dom.append(title);
    const controls = fields.map((f) => {
      const label = document.createElement('label');
      const name = document.createElement('span');
      name.textContent = f.label;
      const control = f.options ? document.createElement('select') : document.createElement('input');
      control.addEventListener(f.options ? 'change' : 'input', () => setAttrs(editor, getPos, f.write ? f.write(control.value, node, editor) : { [f.attr]: control.value }));
      label.append(name, control);
      dom.append(label);
      return { f, control };
    });
    const sync = () => {
      title.textContent = heading(node);
      for (const { f, control } of controls) {
        const value = f.read ? f.read(node) : String(node.attrs[f.attr] ?? '');
        if (control instanceof HTMLSelectElement) {
          const options = f.options!(node, editor);
          if (!options.some(([v]) => v === value)) options.unshift([value, value ? `Other: ${value}` : 'Choose…']);
          control.replaceChildren(...options.map(([v, l]) => Object.assign(document.createElement('option'), { value: v, textContent: l })));
        }
        if (document.activeElement !== control) control.value = value;
      }
    };
    sync();
    if (!(controls[0]?.f.read ? controls[0].f.read(node) : node.attrs[controls[0]!.f.attr])) requestAnimationFrame(() => controls[0]?.control.focus());
    return {
      dom,
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
    cardView('embed', () => 'Embed', [
      { attr: 'url', label: 'URL' },
      { attr: 'caption', label: 'Caption' },
    ]),
});

/** A downloadable file from the space's files (`ref`, a content ref as JSON) with a caption. */
export const FileBlock = Node.create({
  name: 'file',
  ...atomBlock,
  addAttributes: () => ({ ref: { default: null }, name: { default: '' }, caption: { default: '' } }),
  parseHTML: () => [{ tag: 'div[data-file]' }],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-file': '', class: 'file' })],
  addNodeView: () => cardView('file', (node) => `File: ${String(node.attrs.name || 'unnamed')}`, [{ attr: 'caption', label: 'Caption' }]),
});

/** A page link card (`{% content-ref %}`): `ref` is the content ref as JSON; the writer picks a page. */
export const ContentRef = Node.create({
  name: 'contentRef',
  ...atomBlock,
  addStorage: () => ({ pages: [] as PageChoice[] }),
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
    cardView('content-ref', () => 'Page link', [
      {
        attr: 'ref',
        label: 'Page',
        options: (_node, editor) => editor.storage.contentRef.pages.map((p) => [p.id, p.title]),
        read: (node) => {
          const ref = node.attrs.ref ? (JSON.parse(node.attrs.ref as string) as { kind: string; page?: string; url?: string }) : undefined;
          return ref?.kind === 'page' ? ref.page! : (ref?.url ?? '');
        },
        write: (page, node) => {
          const before = node.attrs.ref ? (JSON.parse(node.attrs.ref as string) as { kind: string; url?: string }) : undefined;
          // Choosing the "other" entry again keeps the link as it was.
          if (before?.kind === 'url' && before.url === page) return {};
          return { ref: JSON.stringify({ kind: 'page', page }) };
        },
      },
    ]),
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
