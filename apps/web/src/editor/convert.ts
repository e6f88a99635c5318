import type {
  ContentRef,
  DocumentBlock,
  DocumentBlockImage,
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentFragment,
  DocumentTableDefinition,
  DocumentTableRecord,
  DocumentTableViewGrid,
  DocumentInline,
  DocumentTextMark,
  HintStyle,
  InlineContent,
  JSONDocument,
  MarkColorName,
  TopLevelBlock,
} from '@quire/document';

// GitBook's JSONDocument ⇄ the editor's (ProseMirror/Tiptap) JSON. Nodes of their own: paragraphs,
// headings, lists (bulleted, numbered, tasks), quotes, hints, code blocks, dividers, images, text
// tables, expandables, tabs, math (block and inline), embeds, files and page links, with bold,
// italic, code, strikethrough, keyboard, superscript, subscript, colour, links and annotations.
// The other void blocks (side-by-side images, card and typed tables, OpenAPI, integrations,
// reusable content, drawings) and inlines (emoji, mentions, buttons, inline images, icons,
// expressions) ride whole as the model's JSON in a `gbBlock`/`gbInline` node, whose fields the
// editor edits in that JSON (fields.ts); what a block holds beyond its editable parts rides in an
// `extra` attribute, so a page opened and saved untouched gives back the same document.

export interface PMMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface PMNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PMNode[];
  text?: string;
  marks?: PMMark[];
}

type SimpleMark = Exclude<DocumentTextMark['type'], 'color'>;
const SIMPLE_MARKS: Record<string, string> = {
  bold: 'bold',
  italic: 'italic',
  code: 'code',
  strikethrough: 'strike',
  keyboard: 'keyboard',
  superscript: 'superscript',
  subscript: 'subscript',
};
const MARKS_BACK = Object.fromEntries(Object.entries(SIMPLE_MARKS).map(([model, editor]) => [editor, model])) as Record<string, SimpleMark>;

/** A URL to show for a ref in the editor (the ref itself is kept beside it). */
export type RefHref = (ref: ContentRef) => string;

const defaultHref: RefHref = (ref) => (ref.kind === 'url' ? ref.url : ref.kind === 'file' ? ref.file : ref.kind === 'page' ? ref.page : '');

export function toEditor(doc: JSONDocument, href: RefHref = defaultHref): PMNode {
  const content = doc.nodes.flatMap((b) => block(b as DocumentBlock, href));
  return { type: 'doc', content: content.length ? content : [{ type: 'paragraph' }] };
}

function block(b: DocumentBlock, href: RefHref): PMNode[] {
  const kids = (nodes: DocumentBlock[]) => {
    const out = nodes.flatMap((n) => block(n, href));
    return out.length ? out : [{ type: 'paragraph' }];
  };
  switch (b.type) {
    case 'paragraph':
      return [withContent({ type: 'paragraph', ...(b.data?.align ? { attrs: { align: b.data.align } } : {}) }, inlines(b.nodes, href))];
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return [withContent({ type: 'heading', attrs: { level: Number(b.type.slice(-1)), anchor: b.data?.id ?? null } }, inlines(b.nodes, href))];
    case 'list-unordered':
      return [{ type: 'bulletList', content: b.nodes.map((i) => ({ type: 'listItem', content: kids(i.nodes as DocumentBlock[]) })) }];
    case 'list-ordered':
      return [{ type: 'orderedList', attrs: { start: b.data?.start ?? 1 }, content: b.nodes.map((i) => ({ type: 'listItem', content: kids(i.nodes as DocumentBlock[]) })) }];
    case 'list-tasks':
      return [{ type: 'taskList', content: b.nodes.map((i) => ({ type: 'taskItem', attrs: { checked: i.data?.checked === true }, content: kids(i.nodes as DocumentBlock[]) })) }];
    case 'blockquote':
      return [{ type: 'blockquote', content: kids(b.nodes as DocumentBlock[]) }];
    case 'hint':
      return [{ type: 'hint', attrs: { style: b.data.style }, content: kids(b.nodes as DocumentBlock[]) }];
    case 'code': {
      const { syntax, ...rest } = b.data;
      // Each line's text: code lines hold plain text (annotations and expressions are rare; kept as text).
      const text = b.nodes.map((line) => line.nodes.map((n) => plain(n as InlineContent)).join('')).join('\n');
      return [withContent({ type: 'codeBlock', attrs: { language: syntax ?? null, extra: Object.keys(rest).length ? rest : null } }, text ? [{ type: 'text', text }] : [])];
    }
    case 'divider':
      return [{ type: 'horizontalRule' }];
    case 'images':
      // One image per block edits like a paragraph; several side by side are one block with fields.
      if (b.nodes.length === 1 && !b.data?.align && !b.data?.fullWidth) return [image(b.nodes[0]!, href)];
      return [whole(b)];
    case 'table':
      return [editableTable(b) ? table(b, href) : whole(b)];
    case 'expandable': {
      const title = b.fragments.find((f) => f.fragment === 'expandable-title')?.nodes[0] as DocumentBlockParagraph | undefined;
      const body = b.fragments.find((f) => f.fragment === 'expandable-body')?.nodes ?? [];
      const extra = rest(b, ['data', 'fragments']);
      return [
        {
          type: 'details',
          attrs: { extra: json({ ...extra, ...(title?.data ? { titleData: title.data } : {}), ...(title ? {} : { noTitle: true }) }) },
          content: [withContent({ type: 'detailsSummary' }, title ? inlines(title.nodes, href) : []), { type: 'detailsContent', content: kids(body as DocumentBlock[]) }],
        },
      ];
    }
    case 'tabs':
      return [
        {
          type: 'tabs',
          attrs: { extra: json(rest(b, [])) },
          content: b.nodes.map((tab) => ({
            type: 'tab',
            attrs: { extra: json(rest(tab, [])) },
            content: [withContent({ type: 'tabTitle' }, tab.data.title ? [{ type: 'text', text: tab.data.title }] : []), ...kids(tab.nodes as DocumentBlock[])],
          })),
        },
      ];
    case 'math':
      return [{ type: 'blockMath', attrs: { latex: b.data.formula } }];
    case 'embed': {
      const { url, caption, ...data } = b.data;
      return [{ type: 'embed', attrs: { url, caption: caption ?? '', extra: json(data) } }];
    }
    case 'file':
      return [{ type: 'file', attrs: { ref: JSON.stringify(b.data.ref), name: fileName(href(b.data.ref)), caption: b.data.caption ?? '' } }];
    case 'content-ref':
      return [{ type: 'contentRef', attrs: { ref: JSON.stringify(b.data.ref) } }];
    default:
      return [whole(b)];
  }
}

function image(img: DocumentBlockImage, href: RefHref): PMNode {
  const caption = img.fragments.find((f) => f.fragment === 'caption');
  return {
    type: 'image',
    attrs: {
      src: href(img.data.ref),
      alt: img.data.alt ?? null,
      ref: JSON.stringify(img.data.ref),
      extra: JSON.stringify({ ...img.data, ref: undefined, alt: undefined, ...(caption ? { caption } : {}) }),
    },
  };
}

/** A block kept as the model's JSON, edited through its fields (fields.ts). */
const whole = (b: DocumentBlock): PMNode => ({ type: 'gbBlock', attrs: { block: JSON.stringify(stripKeys(b)) } });

/** A JSON attribute, null when there is nothing to keep. */
const json = (value: Record<string, unknown>): string | null => (Object.keys(value).length ? JSON.stringify(value) : null);
const parse = (value: unknown): Record<string, unknown> => (typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : {});

/** A block's fields beyond object, type, nodes and those named (its `data`, `isVoid`, `meta`…), keys dropped. */
function rest(b: object, omit: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stripKeys(b))) if (!['object', 'type', 'nodes', ...omit].includes(k)) out[k] = v;
  return out;
}

const fileName = (url: string) => url.split('/').pop() || url;

// Tables: a grid whose columns are all text edits as a table, a text cell's fragment as the cell's
// blocks; the header row holds the column titles (unless the view hides it). Column, record and
// fragment ids ride on the cells and rows, so unchanged parts keep theirs.

function editableTable(b: DocumentBlockTable): boolean {
  const { view, records, definition } = b.data;
  if (view.type !== 'grid' || view.columns.some((c) => definition[c]?.type !== 'text')) return false;
  const fragments = new Set(b.fragments.map((f) => f.fragment));
  const cellsAreFragments = Object.values(records).every((r) =>
    view.columns.every((c) => r.values[c] === undefined || (typeof r.values[c] === 'string' && fragments.has(r.values[c]))),
  );
  return cellsAreFragments && (!view.hideHeader || Object.keys(records).length > 0);
}

const ALIGN: Record<string, string> = { left: 'left', center: 'center', right: 'right' };

function table(b: DocumentBlockTable, href: RefHref): PMNode {
  const { view, records, definition, ...data } = b.data as DocumentBlockTable['data'] & { view: DocumentTableViewGrid };
  const { columns, hideHeader, ...viewRest } = view;
  const fragments = new Map(b.fragments.map((f) => [f.fragment, f]));
  const used = new Set<string>();
  const align = (c: string) => {
    const d = definition[c]!;
    return d.type === 'text' && d.textAlignment !== 'left' ? ALIGN[d.textAlignment]! : null;
  };
  const rows: PMNode[] = [];
  if (!hideHeader) {
    rows.push({
      type: 'tableRow',
      content: columns.map((c) => ({
        type: 'tableHeader',
        attrs: { column: c, align: align(c) },
        content: [withContent({ type: 'paragraph' }, definition[c]!.title ? [{ type: 'text', text: definition[c]!.title }] : [])],
      })),
    });
  }
  const ordered = Object.entries(records).sort(([, a], [, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
  for (const [id, record] of ordered) {
    const others = Object.fromEntries(Object.entries(record.values).filter(([c]) => !columns.includes(c)));
    rows.push({
      type: 'tableRow',
      attrs: { record: id, orderIndex: record.orderIndex, extra: json(others) },
      content: columns.map((c) => {
        const value = record.values[c] as string | undefined;
        if (value) used.add(value);
        const nodes = value ? (fragments.get(value)!.nodes as DocumentBlock[]) : [];
        const content = nodes.flatMap((n) => block(n, href));
        return { type: 'tableCell', attrs: { column: c, fragment: value ?? null, align: align(c) }, content: content.length ? content : [{ type: 'paragraph' }] };
      }),
    });
  }
  const extra = {
    data,
    view: viewRest,
    definition,
    columns,
    order: b.fragments.map((f) => f.fragment),
    orphans: b.fragments.filter((f) => !used.has(f.fragment)).map(stripKeys),
  };
  return { type: 'table', attrs: { extra: JSON.stringify(extra) }, content: rows };
}

const withContent = (node: PMNode, content: PMNode[]): PMNode => (content.length ? { ...node, content } : node);

const textOf = (nodes: InlineContent[]) => nodes.map(plain).join('');

function plain(n: InlineContent): string {
  return n.object === 'text' ? n.leaves.map((l) => l.text).join('') : 'nodes' in n ? (n.nodes as InlineContent[]).map(plain).join('') : '';
}

function marksOf(marks: DocumentTextMark[]): PMMark[] {
  return marks.map((m) => (m.type === 'color' ? { type: 'color', attrs: { ...m.data } } : { type: SIMPLE_MARKS[m.type]! }));
}

function inlines(nodes: InlineContent[], href: RefHref, outer: PMMark[] = []): PMNode[] {
  const out: PMNode[] = [];
  for (const n of nodes) {
    if (n.object === 'text') {
      for (const leaf of n.leaves) if (leaf.text) out.push(textNode(leaf.text, [...outer, ...marksOf(leaf.marks)]));
    } else if (n.type === 'link') {
      const link: PMMark = { type: 'link', attrs: { href: href(n.data.ref), ref: JSON.stringify(n.data.ref) } };
      out.push(...inlines(n.nodes as InlineContent[], href, [...outer, link]));
    } else if (n.type === 'annotation') {
      // The annotation without its text: what the mark carries (its note).
      const annotation: PMMark = { type: 'annotation', attrs: { note: JSON.stringify({ object: n.object, type: n.type, ...rest(n, []) }) } };
      out.push(...inlines(n.nodes, href, [...outer, annotation]));
    } else if (n.type === 'inline-math') {
      out.push({ type: 'inlineMath', attrs: { latex: n.data.formula }, ...(outer.length ? { marks: outer } : {}) });
    } else {
      out.push({ type: 'gbInline', attrs: { inline: JSON.stringify(stripKeys(n)) }, ...(outer.length ? { marks: outer } : {}) });
    }
  }
  return out;
}

const textNode = (text: string, marks: PMMark[]): PMNode => (marks.length ? { type: 'text', text, marks } : { type: 'text', text });

/** Keys identify nodes across edits in GitBook's editor; ours are positions, so they are dropped. */
function stripKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'key' ? undefined : v)));
}

// ---------------------------------------------------------------------------------------------

export function fromEditor(doc: PMNode): JSONDocument {
  return { object: 'document', data: {}, nodes: (doc.content ?? []).flatMap(blockBack) as TopLevelBlock[] };
}

function blockBack(n: PMNode): DocumentBlock[] {
  const kids = () => (n.content ?? []).flatMap(blockBack);
  const items = (checked?: boolean) =>
    (n.content ?? []).map((i) => ({
      object: 'block',
      type: 'list-item',
      ...(checked !== undefined || i.type === 'taskItem' ? { data: { checked: i.attrs?.checked === true } } : {}),
      nodes: (i.content ?? []).flatMap(blockBack),
    }));
  switch (n.type) {
    case 'paragraph':
      return [{ object: 'block', type: 'paragraph', ...(n.attrs?.align ? { data: { align: n.attrs.align } } : {}), nodes: inlinesBack(n.content) } as DocumentBlock];
    case 'heading': {
      const level = Math.min(3, Math.max(1, Number(n.attrs?.level ?? 1)));
      const anchor = n.attrs?.anchor as string | null | undefined;
      return [{ object: 'block', type: `heading-${level}`, data: anchor ? { id: anchor } : {}, nodes: inlinesBack(n.content) } as DocumentBlock];
    }
    case 'bulletList':
      return [{ object: 'block', type: 'list-unordered', nodes: items() } as DocumentBlock];
    case 'orderedList': {
      const start = Number(n.attrs?.start ?? 1);
      return [{ object: 'block', type: 'list-ordered', data: start !== 1 ? { start } : {}, nodes: items() } as DocumentBlock];
    }
    case 'taskList':
      return [{ object: 'block', type: 'list-tasks', nodes: items(true) } as DocumentBlock];
    case 'blockquote':
      return [{ object: 'block', type: 'blockquote', nodes: kids() } as DocumentBlock];
    case 'hint':
      return [{ object: 'block', type: 'hint', data: { style: (n.attrs?.style as HintStyle) ?? 'info' }, nodes: kids() } as DocumentBlock];
    case 'codeBlock': {
      const text = (n.content ?? []).map((t) => t.text ?? '').join('');
      const extra = (n.attrs?.extra as Record<string, unknown> | null) ?? {};
      const syntax = n.attrs?.language as string | null;
      return [
        {
          object: 'block',
          type: 'code',
          data: { ...(syntax ? { syntax } : {}), ...extra },
          nodes: text
            .split('\n')
            .map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }] })),
        } as DocumentBlock,
      ];
    }
    case 'horizontalRule':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} } as DocumentBlock];
    case 'image': {
      const { caption, ...extra } = JSON.parse((n.attrs?.extra as string | null) ?? '{}') as Record<string, unknown> & { caption?: unknown };
      const ref = n.attrs?.ref ? (JSON.parse(n.attrs.ref as string) as ContentRef) : { kind: 'url', url: String(n.attrs?.src ?? '') };
      const alt = n.attrs?.alt as string | null;
      const img = { object: 'block', type: 'image', isVoid: true, data: { ...extra, ref, ...(typeof alt === 'string' ? { alt } : {}) }, fragments: caption ? [caption] : [] };
      return [{ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [img] } as DocumentBlock];
    }
    case 'table':
      return [tableBack(n)];
    case 'details': {
      const { titleData, noTitle, ...extra } = parse(n.attrs?.extra);
      const [summary, body] = n.content ?? [];
      const title = { object: 'block', type: 'paragraph', ...(titleData ? { data: titleData } : {}), nodes: inlinesBack(summary?.content) };
      const hasTitle = !noTitle || textOf(title.nodes as InlineContent[]) !== '';
      return [
        {
          object: 'block',
          type: 'expandable',
          isVoid: true,
          data: {},
          ...extra,
          fragments: [
            ...(hasTitle ? [{ object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [title] }] : []),
            { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: (body?.content ?? []).flatMap(blockBack) },
          ],
        } as DocumentBlock,
      ];
    }
    case 'tabs':
      return [
        {
          object: 'block',
          type: 'tabs',
          ...parse(n.attrs?.extra),
          nodes: (n.content ?? []).map((tab) => {
            const [title, ...blocks] = tab.content ?? [];
            const extra = parse(tab.attrs?.extra);
            const text = (title?.content ?? []).map((t) => t.text ?? '').join('');
            const data = (extra.data ?? {}) as Record<string, unknown>;
            return { object: 'block', type: 'tabs-item', ...extra, data: { ...data, ...(text || 'title' in data ? { title: text } : {}) }, nodes: blocks.flatMap(blockBack) };
          }),
        } as DocumentBlock,
      ];
    case 'blockMath':
      return [{ object: 'block', type: 'math', isVoid: true, data: { formula: String(n.attrs?.latex ?? '') } }];
    case 'embed': {
      const caption = String(n.attrs?.caption ?? '');
      return [
        { object: 'block', type: 'embed', isVoid: true, data: { url: String(n.attrs?.url ?? ''), ...parse(n.attrs?.extra), ...(caption ? { caption } : {}) } } as DocumentBlock,
      ];
    }
    case 'file': {
      const caption = String(n.attrs?.caption ?? '');
      return [{ object: 'block', type: 'file', isVoid: true, data: { ref: parse(n.attrs?.ref), ...(caption ? { caption } : {}) } } as DocumentBlock];
    }
    case 'contentRef':
      return [{ object: 'block', type: 'content-ref', isVoid: true, data: { ref: n.attrs?.ref ? parse(n.attrs.ref) : { kind: 'url', url: '' } } } as DocumentBlock];
    case 'gbBlock':
      return [JSON.parse(n.attrs!.block as string) as DocumentBlock];
    default:
      // A node the schema may gain later: its text as a paragraph rather than nothing.
      return [{ object: 'block', type: 'paragraph', nodes: inlinesBack(n.content) } as DocumentBlock];
  }
}

/** An id not in `used` (then added to it): `preferred` when free, else `prefix` and a number. */
function freshId(used: Set<string>, preferred: unknown, prefix: string): string {
  let id = typeof preferred === 'string' && preferred && !used.has(preferred) ? preferred : undefined;
  for (let i = used.size; !id; i++) if (!used.has(`${prefix}${i}`)) id = `${prefix}${i}`;
  used.add(id);
  return id;
}

const cellText = (cell: PMNode | undefined): string => (cell?.content ?? []).map((p) => textOf(inlinesBack(p.content))).join(' ');

function tableBack(n: PMNode): DocumentBlock {
  const {
    data,
    view,
    definition,
    columns: before,
    order,
    orphans,
  } = parse(n.attrs?.extra) as {
    data?: Record<string, unknown>;
    view?: Partial<DocumentTableViewGrid>;
    definition?: Record<string, DocumentTableDefinition>;
    columns?: string[];
    order?: string[];
    orphans?: DocumentFragment[];
  };
  const oldDefs = definition ?? {};
  const rows = n.content ?? [];
  const header = rows[0]?.content?.every((c) => c.type === 'tableHeader') ? rows[0] : undefined;
  const body = header ? rows.slice(1) : rows;
  const width = Math.max(0, ...rows.map((r) => r.content?.length ?? 0));

  // Each column keeps the id its cells carry (the first one not taken), else gets a new one.
  const ids = new Set(Object.keys(oldDefs).filter((id) => !before?.includes(id)));
  const columns = Array.from({ length: width }, (_, i) =>
    freshId(
      ids,
      rows.map((r) => r.content?.[i]?.attrs?.column).find((c) => typeof c === 'string' && !ids.has(c)),
      'c',
    ),
  );
  const defs: Record<string, DocumentTableDefinition> = Object.fromEntries(Object.entries(oldDefs).filter(([id]) => !before?.includes(id)));
  columns.forEach((id, i) => {
    const old = oldDefs[id];
    const title = header ? cellText(header.content?.[i]) : (old?.title ?? '');
    defs[id] = old ? { ...old, title } : { id, title, type: 'text', textAlignment: 'left' };
  });

  // Records keep their order indexes while those still sort as the rows do; else all are renumbered.
  const kept = body.map((r) => r.attrs?.orderIndex as string | undefined);
  const inOrder = kept.every((o, i) => typeof o === 'string' && (i === 0 || o > kept[i - 1]!));
  const recordIds = new Set<string>();
  const fragmentIds = new Set((orphans ?? []).map((f) => f.fragment));
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentFragment[] = [...(orphans ?? [])];
  body.forEach((row, r) => {
    const id = freshId(recordIds, row.attrs?.record, 'r');
    const values: DocumentTableRecord['values'] = { ...(parse(row.attrs?.extra) as DocumentTableRecord['values']) };
    (row.content ?? []).forEach((cell, i) => {
      const nodes = (cell.content ?? []).flatMap(blockBack);
      const empty = nodes.length === 1 && nodes[0]!.type === 'paragraph' && textOf(nodes[0]!.nodes) === '';
      if (!cell.attrs?.fragment && empty) return;
      const fragment = freshId(fragmentIds, cell.attrs?.fragment, `${id}${columns[i]}`);
      values[columns[i]!] = fragment;
      fragments.push({ object: 'fragment', fragment, nodes });
    });
    records[id] = { orderIndex: inOrder ? kept[r]! : String(r).padStart(4, '0'), values };
  });
  const rank = (f: DocumentFragment) => {
    const i = order?.indexOf(f.fragment) ?? -1;
    return i < 0 ? Infinity : i;
  };
  fragments.sort((a, b) => rank(a) - rank(b));

  const { columnWidths, ...viewRest } = view ?? {};
  const widths = columnWidths && Object.fromEntries(Object.entries(columnWidths).filter(([c]) => columns.includes(c)));
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      ...data,
      view: { type: 'grid', ...viewRest, columns, hideHeader: !header, ...(widths ? { columnWidths: widths } : {}) },
      records,
      definition: defs,
    },
    fragments,
  } as DocumentBlock;
}

const sameMarks = (a: DocumentTextMark[], b: DocumentTextMark[]) => JSON.stringify(a) === JSON.stringify(b);

/** The model's inline a run of text is wrapped in: a link (its ref) or an annotation (the rest of it), as JSON. */
function wrapperOf(n: PMNode): { mark: PMMark; json: string } | undefined {
  const link = n.marks?.find((m) => m.type === 'link');
  if (link) return { mark: link, json: (link.attrs?.ref as string | null) ?? JSON.stringify({ kind: 'url', url: String(link.attrs?.href ?? '') }) };
  const annotation = n.marks?.find((m) => m.type === 'annotation');
  return annotation && { mark: annotation, json: String(annotation.attrs?.note) };
}

function inlinesBack(content: PMNode[] = []): InlineContent[] {
  const out: InlineContent[] = [];
  let run: { type: string; json: string; nodes: PMNode[] } | undefined;
  const flush = () => {
    if (!run) return;
    const nodes = mergeTexts(leavesOf(run.nodes)) as never;
    out.push(
      (run.type === 'link' ? { object: 'inline', type: 'link', data: { ref: JSON.parse(run.json) }, nodes } : { ...(JSON.parse(run.json) as object), nodes }) as DocumentInline,
    );
    run = undefined;
  };
  for (const n of content) {
    const wrapper = wrapperOf(n);
    if (run && (run.type !== wrapper?.mark.type || run.json !== wrapper.json)) flush();
    if (wrapper) {
      run ??= { type: wrapper.mark.type, json: wrapper.json, nodes: [] };
      run.nodes.push({ ...n, marks: n.marks!.filter((m) => m.type !== 'link' && m.type !== 'annotation') });
    } else out.push(...leavesOf([n]));
  }
  flush();
  const merged = mergeTexts(out);
  return merged.length ? merged : [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }];
}

function leavesOf(nodes: PMNode[]): InlineContent[] {
  return nodes.map((n) => {
    if (n.type === 'gbInline') return JSON.parse(n.attrs!.inline as string) as InlineContent;
    if (n.type === 'inlineMath') return { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: String(n.attrs?.latex ?? '') } };
    if (n.type === 'hardBreak') return { object: 'text', leaves: [{ object: 'leaf', text: '\n', marks: [] }] };
    const marks: DocumentTextMark[] = (n.marks ?? []).flatMap((m): DocumentTextMark[] =>
      m.type === 'color'
        ? [{ object: 'mark', type: 'color', data: { text: m.attrs?.text as MarkColorName, background: m.attrs?.background as MarkColorName } }]
        : MARKS_BACK[m.type]
          ? [{ object: 'mark', type: MARKS_BACK[m.type]! }]
          : [],
    );
    return { object: 'text', leaves: [{ object: 'leaf', text: n.text ?? '', marks }] };
  });
}

/** Adjacent text nodes as one, and adjacent leaves with the same marks as one leaf. */
function mergeTexts(nodes: InlineContent[]): InlineContent[] {
  const out: InlineContent[] = [];
  for (const n of nodes) {
    const last = out.at(-1);
    if (n.object === 'text' && last?.object === 'text') {
      for (const leaf of n.leaves) {
        const prev = last.leaves.at(-1);
        if (prev && sameMarks(prev.marks, leaf.marks)) prev.text += leaf.text;
        else last.leaves.push({ ...leaf });
      }
    } else out.push(n.object === 'text' ? { object: 'text', leaves: n.leaves.map((l) => ({ ...l })) } : n);
  }
  return out;
}
