import { Extension, Node, mergeAttributes, type Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { toHtml, type TopLevelBlock } from '@quire/document';
import { blockFields, NO_CHOICES, type Choices, type Json } from './fields.ts';
import { attrField, button, byJson, cardView, refUrl, type Preview } from './node-views.ts';

// The document model's blocks that tiptap has no extension for: tabs, embeds, files, page links
// (content refs), and the blocks kept as the model's JSON and edited through their fields
// (fields.ts, node-views.ts); the inlines and math are in inlines.ts, the marks in marks.ts. Their
// look follows the document renderer's markup (packages/document's toHtml): `section.tabs-item`
// (in a `div.tabs-block`), `div.embed`, `div.file`, `div.content-ref`; pasted HTML in that markup
// (a published page's) parses back into these nodes.

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

declare module '@tiptap/core' {
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
