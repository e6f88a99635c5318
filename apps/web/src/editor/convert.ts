import type {
  ContentRef,
  DocumentBlock,
  DocumentBlockImage,
  DocumentInline,
  DocumentTextMark,
  HintStyle,
  InlineContent,
  JSONDocument,
  TopLevelBlock,
} from '@quire/document';

// GitBook's JSONDocument ⇄ the editor's (ProseMirror/Tiptap) JSON. The blocks people write every
// day map to editable nodes: paragraphs, headings, lists (bulleted, numbered, tasks), quotes,
// hints, code blocks, dividers and images, with bold, italic, code, strikethrough and links.
// Every other block (tables, tabs, expandables, embeds, files, math, content refs…) and inline
// (emoji, math, annotations, mentions…) and mark (colors, keyboard…) is carried through
// unchanged as an opaque node or mark, so nothing of a page is lost by editing it.

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

const SIMPLE_MARKS: Record<string, string> = { bold: 'bold', italic: 'italic', code: 'code', strikethrough: 'strike' };
const MARKS_BACK: Record<string, 'bold' | 'italic' | 'code' | 'strikethrough'> = { bold: 'bold', italic: 'italic', code: 'code', strike: 'strikethrough' };

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
      // One image per block edits like a paragraph; several side by side stay one opaque block.
      if (b.nodes.length === 1 && !b.data?.align && !b.data?.fullWidth) return [image(b.nodes[0]!, href)];
      return [opaque(b)];
    default:
      return [opaque(b)];
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

const opaque = (b: DocumentBlock): PMNode => ({ type: 'gbBlock', attrs: { block: JSON.stringify(stripKeys(b)) } });

const withContent = (node: PMNode, content: PMNode[]): PMNode => (content.length ? { ...node, content } : node);

function plain(n: InlineContent): string {
  return n.object === 'text' ? n.leaves.map((l) => l.text).join('') : 'nodes' in n ? (n.nodes as InlineContent[]).map(plain).join('') : '';
}

function marksOf(marks: DocumentTextMark[]): PMMark[] {
  return marks.map((m) => (m.type in SIMPLE_MARKS ? { type: SIMPLE_MARKS[m.type]! } : { type: 'gbMark', attrs: { mark: JSON.stringify(m) } }));
}

function inlines(nodes: InlineContent[], href: RefHref, outer: PMMark[] = []): PMNode[] {
  const out: PMNode[] = [];
  for (const n of nodes) {
    if (n.object === 'text') {
      for (const leaf of n.leaves) if (leaf.text) out.push(textNode(leaf.text, [...outer, ...marksOf(leaf.marks)]));
    } else if (n.type === 'link') {
      const link: PMMark = { type: 'link', attrs: { href: href(n.data.ref), ref: JSON.stringify(n.data.ref) } };
      out.push(...inlines(n.nodes as InlineContent[], href, [...outer, link]));
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
    (n.content ?? []).map((i) => ({ object: 'block', type: 'list-item', ...(checked !== undefined || i.type === 'taskItem' ? { data: { checked: i.attrs?.checked === true } } : {}), nodes: (i.content ?? []).flatMap(blockBack) }));
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
          nodes: text.split('\n').map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }] })),
        } as DocumentBlock,
      ];
    }
    case 'horizontalRule':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} } as DocumentBlock];
    case 'image': {
      const { caption, ...extra } = JSON.parse((n.attrs?.extra as string | null) ?? '{}') as Record<string, unknown> & { caption?: unknown };
      const ref = n.attrs?.ref ? (JSON.parse(n.attrs.ref as string) as ContentRef) : { kind: 'url', url: String(n.attrs?.src ?? '') };
      const alt = n.attrs?.alt as string | null;
      const img = { object: 'block', type: 'image', isVoid: true, data: { ...extra, ref, ...(alt ? { alt } : {}) }, fragments: caption ? [caption] : [] };
      return [{ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [img] } as DocumentBlock];
    }
    case 'gbBlock':
      return [JSON.parse(n.attrs!.block as string) as DocumentBlock];
    default:
      // A node the schema may gain later: its text as a paragraph rather than nothing.
      return [{ object: 'block', type: 'paragraph', nodes: inlinesBack(n.content) } as DocumentBlock];
  }
}

const sameMarks = (a: DocumentTextMark[], b: DocumentTextMark[]) => JSON.stringify(a) === JSON.stringify(b);

function inlinesBack(content: PMNode[] = []): InlineContent[] {
  const out: InlineContent[] = [];
  let link: { ref: string; nodes: PMNode[] } | undefined;
  const flush = () => {
    if (!link) return;
    out.push({ object: 'inline', type: 'link', data: { ref: JSON.parse(link.ref) }, nodes: leavesOf(link.nodes) as never } as DocumentInline);
    link = undefined;
  };
  for (const n of content) {
    const l = n.marks?.find((m) => m.type === 'link');
    const ref = l ? ((l.attrs?.ref as string | null) ?? JSON.stringify({ kind: 'url', url: String(l.attrs?.href ?? '') })) : undefined;
    if (link && link.ref !== ref) flush();
    if (ref) {
      link ??= { ref, nodes: [] };
      link.nodes.push({ ...n, marks: n.marks!.filter((m) => m !== l) });
    } else out.push(...leavesOf([n]));
  }
  flush();
  return mergeTexts(out);
}

function leavesOf(nodes: PMNode[]): InlineContent[] {
  return nodes.map((n) => {
    if (n.type === 'gbInline') return JSON.parse(n.attrs!.inline as string) as InlineContent;
    if (n.type === 'hardBreak') return { object: 'text', leaves: [{ object: 'leaf', text: '\n', marks: [] }] };
    const marks: DocumentTextMark[] = (n.marks ?? []).flatMap((m): DocumentTextMark[] =>
      m.type === 'gbMark' ? [JSON.parse(m.attrs!.mark as string) as DocumentTextMark] : MARKS_BACK[m.type] ? [{ object: 'mark', type: MARKS_BACK[m.type]! }] : [],
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
