import type { PhrasingContent, RootContent, Table as MdastTable } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { fitBlocks } from '../fit.ts';
import { fragment, paragraph, text } from '../nodes.ts';
import { resolveRef } from '../refs.ts';
import type {
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockHeading,
  DocumentBlockImage,
  DocumentBlockImages,
  DocumentBlockListItem,
  DocumentBlockTable,
  DocumentTableDefinition,
  DocumentTableRecord,
  InlineContent,
  Length,
} from '../types.ts';
import { cellBlocks } from './html-cells.ts';
import { attributesOf, htmlText } from './html.ts';
import { readHtmlInlines, readHtmlTable } from './html-table.ts';
import type { Reader } from './reader.ts';

const FIGURE = /<figure>([\s\S]*?)<\/figure>/g;
const IMG = /<img\s[^>]*>/;
const FIGCAPTION = /<figcaption>([\s\S]*?)<\/figcaption>/;
const SUMMARY = /<summary>([\s\S]*?)<\/summary>/i;

function lengthOf(value: string | undefined): Length | undefined {
  if (!value) return undefined;
  const match = /^(\d+(?:\.\d+)?)(px|%)?$/.exec(value.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  return match[2] === '%' ? { unit: '%', value: n } : n;
}

export function expandable(r: Reader, open: string, children: RootContent[]): DocumentBlock {
  let summary = SUMMARY.exec(open)?.[1];
  let body = children;
  const first = children[0];
  if (summary === undefined && first?.type === 'html') {
    const match = SUMMARY.exec(first.value);
    if (match) {
      summary = match[1];
      body = children.slice(1);
    }
  }
  const title = readHtmlInlines((summary ?? '').trim(), r.resolveLink);
  const nodes = fitBlocks(r.flow(body), 'expandable-body');
  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: {},
    fragments: [
      { ...fragment('expandable-title', [paragraph(title)], 'expandable-title'), type: 'expandable-title' },
      { ...fragment('expandable-body', nodes.length ? nodes : [paragraph([])], 'expandable-body'), type: 'expandable-body' },
    ] as never,
  };
}

export function codeBlock(node: { lang?: string | null; value: string }): DocumentBlockCode {
  const data: DocumentBlockCode['data'] = node.lang ? { syntax: node.lang } : {};
  return {
    object: 'block',
    type: 'code',
    data,
    nodes: node.value.split('\n').map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] })),
  };
}

/** One mdast block as document blocks (an unknown block becomes text, never an error). */
export function readBlock(r: Reader, node: RootContent): DocumentBlock[] {
  switch (node.type) {
    case 'paragraph': {
      const images = imagesOf(r, node.children);
      if (images) return [images];
      return [paragraph(r.inlines(node.children))];
    }
    case 'heading':
      return [heading(r, node.depth, node.children)];
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
    case 'blockquote':
      return [{ object: 'block', type: 'blockquote', nodes: fitBlocks(r.flow(node.children), 'blockquote') as never }];
    case 'list': {
      const tasks = !node.ordered && node.children.some((item) => typeof item.checked === 'boolean');
      const items: DocumentBlockListItem[] = node.children.map((item) => {
        const block: DocumentBlockListItem = { object: 'block', type: 'list-item', nodes: fitBlocks(r.flow(item.children), 'list-item') as never };
        if (tasks) block.data = { checked: item.checked === true };
        return block;
      });
      if (node.ordered) return [{ object: 'block', type: 'list-ordered', data: node.start != null && node.start !== 1 ? { start: node.start } : {}, nodes: items }];
      return [{ object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', nodes: items }];
    }
    case 'code':
      return [codeBlock(node)];
    case 'math':
      return [{ object: 'block', type: 'math', isVoid: true, data: { formula: node.value } }];
    case 'table':
      return [table(r, node)];
    case 'html':
      return html(r, node.value);
    case 'gitbookTag':
      return [paragraph([text(node.value)])];
    default:
      return 'value' in node || 'children' in node ? [paragraph([text(toString(node))])] : [];
  }
}

function heading(r: Reader, depth: number, children: PhrasingContent[]): DocumentBlockHeading {
  const type = depth === 1 ? 'heading-1' : depth === 2 ? 'heading-2' : 'heading-3';
  const data: DocumentBlockHeading['data'] = {};
  // GitBook writes an explicit anchor as `## Title <a href="#id" id="id"></a>`.
  const [open, close] = children.slice(-2);
  if (children.length >= 2 && open?.type === 'html' && close?.type === 'html' && close.value === '</a>' && /^<a\s/.test(open.value)) {
    const id = attributesOf(open.value).id;
    if (id && /^[-a-z0-9.+_]+$/.test(id)) {
      data.id = id;
      children = children.slice(0, -2);
      const last = children[children.length - 1];
      if (last?.type === 'text') children = [...children.slice(0, -1), { ...last, value: last.value.replace(/ $/, '') }];
    }
  }
  return { object: 'block', type, data, nodes: ensureText(r.inlines(children)) };
}

/** A paragraph holding one image and nothing else is GitBook's image block. */
function imagesOf(r: Reader, children: PhrasingContent[]): DocumentBlockImages | undefined {
  if (children.length !== 1) return undefined;
  const only = children[0]!;
  if (only.type !== 'image') return undefined;
  return { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [image(r, only.url, only.alt ?? '', [])] };
}

function image(r: Reader, url: string, alt: string, fragments: DocumentBlockImage['fragments'], width?: Length): DocumentBlockImage {
  const ref = resolveRef(url, 'image', r.resolveLink) as DocumentBlockImage['data']['ref'];
  const data: DocumentBlockImage['data'] = { ref, alt };
  if (width !== undefined) data.width = width;
  return { object: 'block', type: 'image', isVoid: true, data, fragments };
}

/** GitBook's HTML blocks: figures and card tables; any other HTML stays visible as text. */
function html(r: Reader, value: string): DocumentBlock[] {
  const images = figures(r, value);
  if (images) return [images];
  if (/^<table[\s>]/i.test(value)) {
    const table = readHtmlTable(value, r.tableId(), r.resolveLink);
    if (table) return [table];
  }
  return [paragraph([text(value)])];
}

function figures(r: Reader, value: string): DocumentBlockImages | undefined {
  let rest = value.trim();
  let align: DocumentBlockImages['data']['align'];
  const wrapper = /^<div(\s[^>]*)?>([\s\S]*)<\/div>$/.exec(rest);
  if (wrapper) {
    const attrs = attributesOf(`<div${wrapper[1] ?? ''}>`);
    if (attrs.align === 'left' || attrs.align === 'right' || attrs.align === 'center') align = attrs.align;
    rest = wrapper[2]!;
  }
  const images: DocumentBlockImage[] = [];
  const leftover = rest.replace(FIGURE, (_, inner: string) => {
    const img = IMG.exec(inner);
    if (!img) return '\0';
    const attrs = attributesOf(img[0]);
    if (attrs.src === undefined) return '\0';
    const caption = FIGCAPTION.exec(inner);
    const fragments = caption ? [fragment('caption', [paragraph([text(htmlText(caption[1]!.replace(/^<p>|<\/p>$/g, '')))])])] : [];
    images.push(image(r, attrs.src, attrs.alt ?? '', fragments, lengthOf(attrs.width)));
    return '';
  });
  if (!images.length || leftover.trim() !== '') return undefined;
  const data: DocumentBlockImages['data'] = align ? { align } : {};
  return { object: 'block', type: 'images', isVoid: false, data, nodes: images };
}

function table(reader: Reader, node: MdastTable): DocumentBlockTable {
  const id = reader.tableId();
  const [head, ...rows] = node.children;
  const columns = (head?.children ?? []).map((_, c) => `${id}c${c}`);
  const definition: Record<string, DocumentTableDefinition> = {};
  columns.forEach((column, c) => {
    const align = node.align?.[c];
    definition[column] = { id: column, title: head ? toString(head.children[c]!) : '', type: 'text', textAlignment: align === 'center' || align === 'right' ? align : 'left' };
  });
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentBlockTable['fragments'] = [];
  rows.forEach((row, r) => {
    const values: DocumentTableRecord['values'] = {};
    columns.forEach((column, c) => {
      const cell = row.children[c];
      const name = `${id}r${r}c${c}`;
      values[column] = name;
      fragments.push(
        fragment(
          name,
          cellBlocks(cell?.children ?? [], (nodes) => reader.inlines(nodes)),
        ),
      );
    });
    records[`${id}r${r}`] = { orderIndex: String(r).padStart(4, '0'), values };
  });
  return { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns, hideHeader: false }, records, definition }, fragments };
}

function ensureText(nodes: InlineContent[]): InlineContent[] {
  return nodes.length ? nodes : [text('')];
}
