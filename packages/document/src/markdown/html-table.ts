import type { Element, ElementContent, Properties } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { fitBlocks } from '../fit.ts';
import { emojiText, fragment, nestLeaves, paragraph, pushText, text } from '../nodes.ts';
import { colorMark, colorStyle, MARK_TAGS, tagMark } from './html.ts';
import { refLabel, refUrl, resolveRef, type RefToUrl, type ResolveLink } from '../refs.ts';
import type {
  ContentRef,
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockTable,
  DocumentFragment,
  DocumentTableDefinition,
  DocumentTableRecord,
  DocumentTextMark,
  InlineContent,
} from '../types.ts';

// GitBook writes a table as HTML inside markdown when a pipe table cannot say it: column widths,
// a hidden header, card views (`<table data-view="cards">`), cells holding links to pages or
// files, or cells holding code blocks. Read with hast-util-from-html (parse5) and written with
// hast-util-to-html, as GitBook's own files are.

const prop = (el: Element, name: string): string | undefined => {
  const value = el.properties[name];
  return value === undefined || value === null || value === false ? undefined : Array.isArray(value) ? value.join(' ') : String(value);
};
const elements = (nodes: readonly ElementContent[], tagName: string) => nodes.filter((n): n is Element => n.type === 'element' && n.tagName === tagName);
const textOf = (node: ElementContent): string => (node.type === 'text' ? node.value : node.type === 'element' ? node.children.map(textOf).join('') : '');

/** `<table>…</table>` as a table block, or undefined when the HTML is not one GitBook table. */
export function readHtmlTable(source: string, id: string, resolve: ResolveLink | undefined): DocumentBlockTable | undefined {
  const root = fromHtml(source, { fragment: true });
  const tables = root.children.filter((n) => n.type === 'element' || (n.type === 'text' && n.value.trim()));
  const table = tables[0];
  if (tables.length !== 1 || table?.type !== 'element' || table.tagName !== 'table') return undefined;
  const head = elements(table.children, 'thead')[0];
  const headers = head ? elements(elements(head.children, 'tr')[0]?.children ?? [], 'th') : [];
  const body = elements(table.children, 'tbody')[0];
  const rows = body ? elements(body.children, 'tr') : [];
  if (!headers.length) return undefined;

  const definition: Record<string, DocumentTableDefinition> = {};
  const columns: string[] = [];
  const widths: Record<string, number> = {};
  let target: string | undefined;
  let cover: string | undefined;
  headers.forEach((th, c) => {
    const column = `${id}c${c}`;
    const type = prop(th, 'dataType');
    const title = textOf(th);
    if (type === 'content-ref' || type === 'files' || type === 'number' || type === 'checkbox') definition[column] = { id: column, title, type };
    else {
      const align = prop(th, 'align');
      definition[column] = { id: column, title, type: 'text', textAlignment: align === 'center' || align === 'right' ? align : 'left' };
    }
    if (prop(th, 'dataHidden') === undefined) columns.push(column);
    if (prop(th, 'dataCardTarget') !== undefined) target = column;
    if (prop(th, 'dataCardCover') !== undefined) cover = column;
    const width = Number(prop(th, 'width'));
    if (prop(th, 'width') !== undefined && Number.isFinite(width)) widths[column] = width;
  });

  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentFragment[] = [];
  rows.forEach((tr, r) => {
    const cells = elements(tr.children, 'td');
    const values: DocumentTableRecord['values'] = {};
    Object.values(definition).forEach((d, c) => {
      const cell = cells[c];
      if (!cell) return;
      const links = elements(cell.children, 'a');
      if (d.type === 'content-ref') {
        const href = links[0] && prop(links[0], 'href');
        if (href !== undefined) values[d.id] = resolveRef(href, 'content-ref', resolve);
      } else if (d.type === 'files') {
        values[d.id] = links
          .map((a) => prop(a, 'href'))
          .filter((h): h is string => h !== undefined)
          .map((h) => (resolveRef(h, 'file', resolve) as { file: string }).file);
      } else if (d.type === 'number' || d.type === 'checkbox') {
        const raw = textOf(cell).trim();
        if (raw) values[d.id] = d.type === 'number' ? Number(raw) : raw === 'true';
      } else {
        const name = `${id}r${r}c${c}`;
        values[d.id] = name;
        fragments.push(fragment(name, cellBlocks(cell.children, resolve)));
      }
    });
    records[`${id}r${r}`] = { orderIndex: String(r).padStart(4, '0'), values };
  });

  const view: DocumentBlockTable['data']['view'] =
    prop(table, 'dataView') === 'cards'
      ? {
          type: 'cards',
          cardSize: prop(table, 'dataCardSize') === 'large' ? 'large' : 'medium',
          columns,
          ...(target ? { targetDefinition: target } : {}),
          ...(cover ? { coverDefinition: cover } : {}),
        }
      : { type: 'grid', columns, hideHeader: prop(table, 'dataHeaderHidden') !== undefined, ...(Object.keys(widths).length ? { columnWidths: widths } : {}) };
  const data: DocumentBlockTable['data'] = { view, records, definition };
  if (prop(table, 'dataFullWidth') === 'true') data.fullWidth = true;
  return { object: 'block', type: 'table', isVoid: true, data, fragments };
}

const BLOCKS = new Set(['p', 'pre', 'ul', 'ol']);

/** A cell's content: `<p>`, `<pre>` and list blocks (inline content between them a paragraph), or inline content as one paragraph. */
function cellBlocks(children: ElementContent[], resolve: ResolveLink | undefined): DocumentBlock[] {
  const isBlock = (n: ElementContent): n is Element => n.type === 'element' && BLOCKS.has(n.tagName);
  if (!children.some(isBlock)) return [paragraph(readInlines(children, [], [], resolve))];
  const out: DocumentBlock[] = [];
  let run: ElementContent[] = [];
  const flush = () => {
    if (run.some((n) => n.type === 'element' || (n.type === 'text' && n.value.trim()))) out.push(paragraph(readInlines(run, [], [], resolve)));
    run = [];
  };
  for (const node of children) {
    if (!isBlock(node)) {
      run.push(node);
      continue;
    }
    flush();
    if (node.tagName === 'ul' || node.tagName === 'ol') {
      const items = elements(node.children, 'li').map((li) => ({
        object: 'block' as const,
        type: 'list-item' as const,
        nodes: fitBlocks(cellBlocks(li.children, resolve), 'list-item') as never,
      }));
      const start = Number(prop(node, 'start'));
      if (node.tagName === 'ul') out.push({ object: 'block', type: 'list-unordered', nodes: items });
      else out.push({ object: 'block', type: 'list-ordered', data: Number.isInteger(start) && start !== 1 ? { start } : {}, nodes: items });
    } else if (node.tagName === 'pre') {
      const code = elements(node.children, 'code')[0];
      const className = code ? prop(code, 'className') : undefined;
      const syntax = className?.split(' ').find((c) => c.startsWith('language-') || c.startsWith('lang-'));
      const block: DocumentBlockCode = {
        object: 'block',
        type: 'code',
        data: syntax ? { syntax: syntax.replace(/^lang(uage)?-/, '') } : {},
        nodes: textOf(code ?? node)
          .split('\n')
          .map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] })),
      };
      out.push(block);
    } else out.push(paragraph(readInlines(node.children, [], [], resolve)));
  }
  flush();
  return out;
}

/** Inline HTML (a `<summary>`'s content) as inline content. */
export function readHtmlInlines(source: string, resolve: ResolveLink | undefined): InlineContent[] {
  return readInlines(fromHtml(source, { fragment: true }).children as ElementContent[], [], [], resolve);
}

/** Inline content as GitBook's inline HTML. */
export function writeHtmlInlines(nodes: InlineContent[], toUrl: RefToUrl | undefined): string {
  return toHtml({ type: 'root', children: writeInlines(nodes, toUrl) });
}

function readInlines(nodes: ElementContent[], marks: DocumentTextMark[], out: InlineContent[], resolve: ResolveLink | undefined): InlineContent[] {
  for (const node of nodes) {
    if (node.type === 'text') pushText(out, node.value, marks);
    if (node.type !== 'element') continue;
    const tag = node.tagName;
    if (tag === 'br') pushText(out, '\n', marks);
    else if (tagMark(tag)) readInlines(node.children, [...marks, tagMark(tag)!], out, resolve);
    else if (tag === 'mark') {
      const color = colorMark(prop(node, 'style') ?? '');
      readInlines(node.children, color ? [...marks, color] : marks, out, resolve);
    } else if (tag === 'a') {
      const href = prop(node, 'href') ?? '';
      const inner = readInlines(node.children, marks, [], resolve).filter((n) => n.object === 'text') as never[];
      out.push({ object: 'inline', type: 'link', data: { ref: resolveRef(href, 'link', resolve) }, nodes: inner.length ? inner : [text('')] });
    } else if (tag === 'span' && prop(node, 'dataTag') === 'emoji' && prop(node, 'dataCode')) {
      out.push({ object: 'inline', type: 'emoji', isVoid: true, data: { code: prop(node, 'dataCode')! } });
    } else if (tag === 'img' && prop(node, 'src') !== undefined) {
      const ref = resolveRef(prop(node, 'src')!, 'image', resolve) as { kind: 'url'; url: string };
      const alt = prop(node, 'alt');
      out.push({ object: 'inline', type: 'inline-image', isVoid: true, data: alt ? { ref, caption: alt } : { ref } });
    } else readInlines(node.children, marks, out, resolve);
  }
  return out;
}

const h = (tagName: string, properties: Properties, children: ElementContent[] = []): Element => ({ type: 'element', tagName, properties, children });

/** A table block as GitBook's HTML table. */
export function writeHtmlTable(block: DocumentBlockTable, toUrl: RefToUrl | undefined): string {
  const { view, definition, records } = block.data;
  const fragments = new Map(block.fragments.map((f) => [f.fragment, f]));
  const definitions = Object.values(definition);
  const tableProps: Properties = {};
  if (view.type === 'cards') {
    if (view.cardSize === 'large') tableProps.dataCardSize = 'large';
    tableProps.dataView = 'cards';
  } else if (view.hideHeader) tableProps.dataHeaderHidden = true;
  if (block.data.fullWidth) tableProps.dataFullWidth = 'true';
  const ths = definitions.map((d) => {
    const props: Properties = {};
    if (d.type === 'text' && d.textAlignment !== 'left') props.align = d.textAlignment;
    if (view.type === 'grid' && view.columnWidths?.[d.id] !== undefined) props.width = String(view.columnWidths[d.id]);
    if (!view.columns.includes(d.id)) props.dataHidden = true;
    if (view.type === 'cards' && view.targetDefinition === d.id) props.dataCardTarget = true;
    if (view.type === 'cards' && view.coverDefinition === d.id) props.dataCardCover = true;
    if (d.type !== 'text') props.dataType = d.type;
    return h('th', props, d.title ? [{ type: 'text', value: d.title }] : []);
  });
  const ordered = Object.values(records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
  const rows = ordered.map((record) =>
    h(
      'tr',
      {},
      definitions.map((d) => {
        const value = record.values[d.id];
        if (d.type === 'content-ref' && value && typeof value === 'object' && !Array.isArray(value)) {
          const url = refUrl(value as ContentRef, 'content-ref', toUrl) ?? '';
          return h('td', {}, [h('a', { href: url }, [{ type: 'text', value: refLabel(url) }])]);
        }
        if (d.type === 'files' && Array.isArray(value)) {
          return h(
            'td',
            {},
            value.map((file) => h('a', { href: refUrl({ kind: 'file', file }, 'file', toUrl) ?? '' }, [{ type: 'text', value: refLabel(file) }])),
          );
        }
        const f = typeof value === 'string' ? fragments.get(value) : undefined;
        if (f) return h('td', {}, writeCell(f.nodes, toUrl));
        return h('td', {}, value === undefined || typeof value === 'object' ? [] : [{ type: 'text', value: String(value) }]);
      }),
    ),
  );
  const table = h('table', tableProps, [h('thead', {}, [h('tr', {}, ths)]), h('tbody', {}, rows)]);
  return toHtml(table);
}

function writeCell(blocks: DocumentBlock[], toUrl: RefToUrl | undefined): ElementContent[] {
  if (blocks.length === 1 && blocks[0]!.type === 'paragraph') return writeInlines(blocks[0]!.nodes, toUrl);
  return blocks.map((block) => {
    if (block.type === 'code') {
      const source = block.nodes.map((line) => line.nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '')).join('')).join('\n');
      return h('pre', {}, [h('code', block.data.syntax ? { className: [`lang-${block.data.syntax}`] } : {}, [{ type: 'text', value: source }])]);
    }
    if (block.type === 'list-unordered' || block.type === 'list-ordered') {
      const start = block.type === 'list-ordered' && block.data.start !== undefined && block.data.start !== 1 ? { start: block.data.start } : {};
      return h(
        block.type === 'list-ordered' ? 'ol' : 'ul',
        start,
        block.nodes.map((item) => h('li', {}, writeCell(item.nodes as DocumentBlock[], toUrl))),
      );
    }
    return h('p', {}, block.type === 'paragraph' ? writeInlines(block.nodes, toUrl) : []);
  });
}

function writeInlines(nodes: InlineContent[], toUrl: RefToUrl | undefined): ElementContent[] {
  const out: ElementContent[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      out.push(
        ...nestLeaves<ElementContent>(
          node.leaves,
          (mark, children, value) => {
            if (mark.type === 'color') return [h('mark', { style: colorStyle(mark) }, children)];
            return [h(MARK_TAGS[mark.type]!, {}, mark.type === 'code' ? [{ type: 'text', value }] : children)];
          },
          (value) => value.split('\n').flatMap((part, i) => [...(i ? [h('br', {})] : []), ...(part ? [{ type: 'text' as const, value: part }] : [])]),
        ),
      );
    } else if (node.type === 'link') out.push(h('a', { href: refUrl(node.data.ref, 'link', toUrl) ?? '' }, writeInlines(node.nodes, toUrl)));
    else if (node.type === 'emoji')
      out.push(h('span', { dataGbCustomInline: true, dataTag: 'emoji', dataCode: node.data.code }, [{ type: 'text', value: emojiText(node.data.code) }]));
    else if (node.type === 'inline-image') out.push(h('img', { src: refUrl(node.data.ref, 'image', toUrl) ?? '', alt: node.data.caption ?? '' }));
    else if (node.type === 'inline-math') out.push({ type: 'text', value: `$$${node.data.formula}$$` });
  }
  return out;
}
