import type { ContentRef, DocumentBlock, DocumentBlockImage, DocumentBlockParagraph, HintStyle, InlineContent, JSONDocument, TopLevelBlock } from '@quire/document';

// GitBook's JSONDocument ⇄ the editor's (ProseMirror/Tiptap) JSON. Nodes of their own: paragraphs,
// headings, lists (bulleted, numbered, tasks), quotes, hints, code blocks, dividers, images, text
// tables, expandables, tabs, math (block and inline), embeds, files and page links, with bold,
// italic, code, strikethrough, keyboard, superscript, subscript, colour, links and annotations.
// The other void blocks (side-by-side images, card and typed tables, OpenAPI, integrations,
// reusable content, drawings) and inlines (emoji, mentions, buttons, inline images, icons,
// expressions) ride whole as the model's JSON in a `gbBlock`/`gbInline` node, whose fields the
// editor edits in that JSON (fields.ts); what a block holds beyond its editable parts rides in an
// `extra` attribute, so a page opened and saved untouched gives back the same document. Inline
// content is converted in convert-inline.ts, text tables in convert-table.ts.
import { json, parse, rest, stripKeys, withContent, type PMNode, type RefHref } from './convert-json.ts';
import { inlines, inlinesBack, plain, textOf } from './convert-inline.ts';
import { editableTable, table, tableBack } from './convert-table.ts';

export type { PMMark, PMNode, RefHref } from './convert-json.ts';

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
      return [editableTable(b) ? table(b, (n) => block(n, href)) : whole(b)];
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

const fileName = (url: string) => url.split('/').pop() || url;

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
      return [tableBack(n, blockBack)];
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
