import type { PhrasingContent, RootContent, Table as MdastTable } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { fitBlocks } from './fit.ts';
import { cellBlocks } from './markdown/html-cells.ts';
import { attributesOf, colorMark, decodeEntities, htmlTag, htmlText, tagMark } from './markdown/html.ts';
import { readHtmlInlines, readHtmlTable } from './markdown/html-table.ts';
import { parseMarkdownTree } from './markdown/parse.ts';
import { parseTag, type ParsedTag } from './markdown/tags.ts';
import { fragment, paragraph, pushText, text } from './nodes.ts';
import { resolveRef, type ResolveLink } from './refs.ts';
import type {
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockHeading,
  DocumentBlockImage,
  DocumentBlockImages,
  DocumentBlockListItem,
  DocumentBlockTable,
  DocumentBlockTabsItem,
  DocumentInlineImage,
  DocumentTableDefinition,
  DocumentTableRecord,
  DocumentTextMark,
  HintStyle,
  InlineContent,
  JSONDocument,
  Length,
  TopLevelBlock,
} from './types.ts';

export interface FromMarkdownOptions {
  /** Resolves destinations (links, images, files, content references) to refs; default: kept raw. */
  resolveLink?: ResolveLink;
}

export interface ParsedMarkdown {
  document: JSONDocument;
  /** The YAML front matter's source (without its `---` fences), kept aside from the document. */
  frontmatter?: string;
}

/** Markdown (GFM and GitBook's block syntax) → GitBook JSONDocument. Never throws on odd input. */
export function fromMarkdown(markdown: string, options: FromMarkdownOptions = {}): JSONDocument {
  return parseMarkdown(markdown, options).document;
}

/** Like fromMarkdown, with the front matter kept aside. */
export function parseMarkdown(markdown: string, options: FromMarkdownOptions = {}): ParsedMarkdown {
  const root = parseMarkdownTree(markdown);
  let matter: string | undefined;
  const children = root.children.filter((node) => {
    if (node.type !== 'yaml') return true;
    matter = node.value;
    return false;
  });
  const reader = new Reader(options);
  const nodes = fitBlocks(reader.flow(children), 'document') as TopLevelBlock[];
  const document: JSONDocument = { object: 'document', data: {}, nodes };
  return matter === undefined ? { document } : { document, frontmatter: matter };
}

const HINT_STYLES = new Set<HintStyle>(['info', 'warning', 'danger', 'success']);
const FIGURE = /<figure>([\s\S]*?)<\/figure>/g;
const IMG = /<img\s[^>]*>/;
const FIGCAPTION = /<figcaption>([\s\S]*?)<\/figcaption>/;
const DETAILS_OPEN = /^<details(?:\s[^>]*)?>/i;
const DETAILS_CLOSE = /^<\/details>\s*$/i;
const DETAILS = '<details>';
const MAX_NESTING = 100;
const parsedTags = new WeakMap<RootContent, ParsedTag | undefined>();

/** The GitBook tag a node is, read once per node. */
function tagOf(node: RootContent): ParsedTag | undefined {
  if (node.type !== 'gitbookTag') return undefined;
  if (!parsedTags.has(node)) parsedTags.set(node, parseTag(node.value));
  return parsedTags.get(node);
}
const SUMMARY = /<summary>([\s\S]*?)<\/summary>/i;
/** `{% include "path" %}` as GitBook writes it (double quotes, no other argument). */
const INCLUDE = /^\{% include "([^"]+)" %\}$/;

function lengthOf(value: string | undefined): Length | undefined {
  if (!value) return undefined;
  const match = /^(\d+(?:\.\d+)?)(px|%)?$/.exec(value.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  return match[2] === '%' ? { unit: '%', value: n } : n;
}

/** One conversion: ids for tables. */
class Reader {
  private tables = 0;
  private readonly pairs = new WeakMap<RootContent[], Map<number, number>>();
  private depth = 0;

  constructor(private readonly options: FromMarkdownOptions) {}

  /** A run of sibling blocks, GitBook tags and `<details>` paired up into containers. */
  flow(children: RootContent[]): DocumentBlock[] {
    this.depth++;
    try {
      return this.siblings(children);
    } finally {
      this.depth--;
    }
  }

  private siblings(children: RootContent[]): DocumentBlock[] {
    const out: DocumentBlock[] = [];
    for (let i = 0; i < children.length; i++) {
      const node = children[i]!;
      if (node.type === 'gitbookTag') {
        i = this.tag(children, i, out);
        continue;
      }
      if (node.type === 'html' && DETAILS_OPEN.test(node.value) && this.depth <= MAX_NESTING) {
        const end = this.closer(children, i);
        if (end !== -1) {
          out.push(this.expandable(node.value, children.slice(i + 1, end)));
          i = end;
          continue;
        }
      }
      out.push(...this.block(node));
    }
    return out;
  }

  /**
   * The index of the sibling closing the container opened at `start` (a GitBook tag or
   * `<details>`; nested ones of the same kind paired first), or -1. A run of siblings is paired up
   * once, in one pass: scanning forward from every opener was quadratic in unclosed tags.
   */
  private closer(children: RootContent[], start: number): number {
    let pairs = this.pairs.get(children);
    if (!pairs) {
      pairs = new Map();
      const open = new Map<string, number[]>();
      children.forEach((node, i) => {
        const tag = tagOf(node);
        let kind: string | undefined;
        let opens = false;
        if (tag) [kind, opens] = [tag.name, !tag.closing];
        else if (node.type === 'html') {
          opens = DETAILS_OPEN.test(node.value);
          if (opens || DETAILS_CLOSE.test(node.value)) kind = DETAILS;
        }
        if (kind === undefined) return;
        const stack = open.get(kind) ?? open.set(kind, []).get(kind)!;
        if (opens) stack.push(i);
        else if (stack.length) pairs!.set(stack.pop()!, i);
      });
      this.pairs.set(children, pairs);
    }
    return pairs.get(start) ?? -1;
  }

  private tagCloser(children: RootContent[], start: number, name: string, nesting = true): number {
    if (nesting) return this.closer(children, start);
    // Tags whose closing is optional ({% file %}, {% embed %}): closed before the next opening only.
    for (let i = start + 1; i < children.length; i++) {
      const tag = tagOf(children[i]!);
      if (tag?.name !== name) continue;
      return tag.closing ? i : -1;
    }
    return -1;
  }

  /** Reads the tag at `i` (and what it encloses) into `out`; answers the last index consumed. */
  private tag(children: RootContent[], i: number, out: DocumentBlock[]): number {
    const node = children[i] as { type: 'gitbookTag'; value: string };
    const tag = tagOf(node);
    const literal = () => {
      out.push(paragraph([text(node.value)]));
      return i;
    };
    // Containers nested deeper than any page has stay text: the reading recurses per level.
    if (!tag || tag.closing || this.depth > MAX_NESTING) return literal();
    const { name, attributes } = tag;
    switch (name) {
      case 'hint': {
        const end = this.tagCloser(children, i, name);
        if (end === -1) return literal();
        const style = HINT_STYLES.has(attributes.style as HintStyle) ? (attributes.style as HintStyle) : 'info';
        out.push({ object: 'block', type: 'hint', data: { style }, nodes: fitBlocks(this.flow(children.slice(i + 1, end)), 'hint') as never });
        return end;
      }
      case 'tabs': {
        const end = this.tagCloser(children, i, name);
        if (end === -1) return literal();
        out.push({ object: 'block', type: 'tabs', nodes: this.tabs(children.slice(i + 1, end)) });
        return end;
      }
      case 'code': {
        const next = children[i + 1];
        if (next?.type !== 'code') return literal();
        const block = this.code(next);
        if (attributes.title !== undefined) block.data.title = attributes.title;
        if (attributes.overflow === 'wrap' || attributes.overflow === 'scroll') block.data.overflow = attributes.overflow;
        if (attributes.lineNumbers !== undefined) block.data.lineNumbers = attributes.lineNumbers === 'true';
        if (attributes.fullWidth !== undefined) block.data.fullWidth = attributes.fullWidth === 'true';
        out.push(block);
        const after = children[i + 2];
        const closing = after && tagOf(after);
        return closing?.name === 'code' && closing.closing ? i + 2 : i + 1;
      }
      case 'content-ref':
      case 'page-ref': {
        const url = attributes.url ?? attributes.page;
        if (url === undefined) return literal();
        out.push({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: resolveRef(url, 'content-ref', this.options.resolveLink) } });
        // The link GitBook writes inside is derived from the url: nothing more to keep.
        const end = name === 'content-ref' ? this.tagCloser(children, i, name, false) : -1;
        return end === -1 ? i : end;
      }
      case 'openapi': {
        const { src, path, method } = attributes;
        const end = this.tagCloser(children, i, name);
        if (src === undefined || path === undefined || method === undefined || end === -1) return literal();
        // The link GitBook writes inside names the spec again: nothing more to keep.
        const ref = /^https?:\/\//i.test(src) ? ({ kind: 'url', url: src } as const) : (resolveRef(src, 'file', this.options.resolveLink) as { kind: 'file'; file: string });
        out.push({ object: 'block', type: 'swagger', isVoid: true, data: { ref, path, method } });
        return end;
      }
      case 'include': {
        // Reusable content as Git Sync writes it, `{% include "../.gitbook/includes/x.md" %}`: the
        // file's path as written stands for the reusable content (Quire keeps no such entity).
        const path = INCLUDE.exec(node.value)?.[1];
        if (path === undefined) return literal();
        out.push({ object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: path } } });
        return i;
      }
      case 'embed':
      case 'file': {
        const url = name === 'embed' ? attributes.url : attributes.src;
        if (url === undefined) return literal();
        // A caption, when there is one, sits between the tag and its (then required) closing tag.
        const end = this.tagCloser(children, i, name, false);
        const caption =
          end === -1
            ? ''
            : children
                .slice(i + 1, end)
                .map((n) => toString(n))
                .join('\n\n');
        if (name === 'embed') out.push({ object: 'block', type: 'embed', isVoid: true, data: caption ? { url, caption } : { url } });
        else {
          const ref = resolveRef(url, 'file', this.options.resolveLink) as { kind: 'file'; file: string };
          out.push({ object: 'block', type: 'file', isVoid: true, data: caption ? { ref, caption } : { ref } });
        }
        return end === -1 ? i : end;
      }
      default:
        return literal();
    }
  }

  private tabs(children: RootContent[]): DocumentBlockTabsItem[] {
    const items: DocumentBlockTabsItem[] = [];
    for (let i = 0; i < children.length; i++) {
      const node = children[i]!;
      const tag = tagOf(node);
      if (tag?.name === 'tab' && !tag.closing) {
        const end = this.tagCloser(children, i, 'tab');
        const stop = end === -1 ? children.length : end;
        const data = tag.attributes.title !== undefined ? { title: tag.attributes.title } : {};
        items.push({ object: 'block', type: 'tabs-item', data, nodes: fitBlocks(this.flow(children.slice(i + 1, stop)), 'tabs-item') as never });
        i = stop;
        continue;
      }
      // Content between tabs belongs to the tab before it (or a new one): nothing is dropped.
      const blocks = fitBlocks(this.flow([node]), 'tabs-item');
      if (!blocks.length) continue;
      const last = items[items.length - 1] ?? items[items.push({ object: 'block', type: 'tabs-item', data: {}, nodes: [] }) - 1]!;
      last.nodes.push(...(blocks as never[]));
    }
    return items;
  }

  private expandable(open: string, children: RootContent[]): DocumentBlock {
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
    const title = readHtmlInlines((summary ?? '').trim(), this.options.resolveLink);
    const nodes = fitBlocks(this.flow(body), 'expandable-body');
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

  private code(node: { lang?: string | null; value: string }): DocumentBlockCode {
    const data: DocumentBlockCode['data'] = node.lang ? { syntax: node.lang } : {};
    return {
      object: 'block',
      type: 'code',
      data,
      nodes: node.value.split('\n').map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] })),
    };
  }

  /** One mdast block as document blocks (an unknown block becomes text, never an error). */
  private block(node: RootContent): DocumentBlock[] {
    switch (node.type) {
      case 'paragraph': {
        const images = this.imagesOf(node.children);
        if (images) return [images];
        return [paragraph(this.inlines(node.children))];
      }
      case 'heading':
        return [this.heading(node.depth, node.children)];
      case 'thematicBreak':
        return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
      case 'blockquote':
        return [{ object: 'block', type: 'blockquote', nodes: fitBlocks(this.flow(node.children), 'blockquote') as never }];
      case 'list': {
        const tasks = !node.ordered && node.children.some((item) => typeof item.checked === 'boolean');
        const items: DocumentBlockListItem[] = node.children.map((item) => {
          const block: DocumentBlockListItem = { object: 'block', type: 'list-item', nodes: fitBlocks(this.flow(item.children), 'list-item') as never };
          if (tasks) block.data = { checked: item.checked === true };
          return block;
        });
        if (node.ordered) return [{ object: 'block', type: 'list-ordered', data: node.start != null && node.start !== 1 ? { start: node.start } : {}, nodes: items }];
        return [{ object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', nodes: items }];
      }
      case 'code':
        return [this.code(node)];
      case 'math':
        return [{ object: 'block', type: 'math', isVoid: true, data: { formula: node.value } }];
      case 'table':
        return [this.table(node)];
      case 'html':
        return this.html(node.value);
      case 'gitbookTag':
        return [paragraph([text(node.value)])];
      default:
        return 'value' in node || 'children' in node ? [paragraph([text(toString(node))])] : [];
    }
  }

  private heading(depth: number, children: PhrasingContent[]): DocumentBlockHeading {
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
    return { object: 'block', type, data, nodes: ensureText(this.inlines(children)) };
  }

  /** A paragraph holding one image and nothing else is GitBook's image block. */
  private imagesOf(children: PhrasingContent[]): DocumentBlockImages | undefined {
    if (children.length !== 1) return undefined;
    const only = children[0]!;
    if (only.type !== 'image') return undefined;
    return { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [this.image(only.url, only.alt ?? '', [])] };
  }

  private image(url: string, alt: string, fragments: DocumentBlockImage['fragments'], width?: Length): DocumentBlockImage {
    const ref = resolveRef(url, 'image', this.options.resolveLink) as DocumentBlockImage['data']['ref'];
    const data: DocumentBlockImage['data'] = { ref, alt };
    if (width !== undefined) data.width = width;
    return { object: 'block', type: 'image', isVoid: true, data, fragments };
  }

  /** GitBook's HTML blocks: figures and card tables; any other HTML stays visible as text. */
  private html(value: string): DocumentBlock[] {
    const figures = this.figures(value);
    if (figures) return [figures];
    if (/^<table[\s>]/i.test(value)) {
      const table = readHtmlTable(value, `t${++this.tables}`, this.options.resolveLink);
      if (table) return [table];
    }
    return [paragraph([text(value)])];
  }

  private figures(value: string): DocumentBlockImages | undefined {
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
      images.push(this.image(attrs.src, attrs.alt ?? '', fragments, lengthOf(attrs.width)));
      return '';
    });
    if (!images.length || leftover.trim() !== '') return undefined;
    const data: DocumentBlockImages['data'] = align ? { align } : {};
    return { object: 'block', type: 'images', isVoid: false, data, nodes: images };
  }

  private table(node: MdastTable): DocumentBlockTable {
    const id = `t${++this.tables}`;
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
            cellBlocks(cell?.children ?? [], (nodes) => this.inlines(nodes)),
          ),
        );
      });
      records[`${id}r${r}`] = { orderIndex: String(r).padStart(4, '0'), values };
    });
    return { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns, hideHeader: false }, records, definition }, fragments };
  }

  /**
   * Phrasing content as leaves and inlines. Inline HTML GitBook writes is read (html.ts): the
   * marks' tags, `<mark>` colors, `<a href>` links, `<br>`, `<img>`; any other tag stays text.
   */
  inlines(children: PhrasingContent[], marks: DocumentTextMark[] = [], out: InlineContent[] = []): InlineContent[] {
    // Open inline tags: the marks before each, and for a link the content it was written into.
    const open: { tag: string; marks: DocumentTextMark[]; link?: { url: string; outer: InlineContent[] } }[] = [];
    let current = marks;
    let target = out;
    const close = (depth: number) => {
      while (open.length > depth) {
        const tag = open.pop()!;
        current = tag.marks;
        if (!tag.link) continue;
        tag.link.outer.push(this.link(tag.link.url, target));
        target = tag.link.outer;
      }
    };
    for (const node of children) {
      switch (node.type) {
        case 'text':
          pushText(target, node.value, current);
          break;
        case 'emphasis':
          this.inlines(node.children, [...current, { object: 'mark', type: 'italic' }], target);
          break;
        case 'strong':
          this.inlines(node.children, [...current, { object: 'mark', type: 'bold' }], target);
          break;
        case 'delete':
          this.inlines(node.children, [...current, { object: 'mark', type: 'strikethrough' }], target);
          break;
        case 'inlineCode':
          pushText(target, node.value, [...current, { object: 'mark', type: 'code' }]);
          break;
        case 'break':
          pushText(target, '\n', current);
          break;
        case 'inlineMath':
          target.push({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: node.value } });
          break;
        // markdown-it resolves reference links and images against their definitions.
        case 'link': {
          if (node.title === 'mention') {
            target.push({ object: 'inline', type: 'mention', isVoid: true, data: { ref: resolveRef(node.url, 'mention', this.options.resolveLink) } });
            break;
          }
          target.push(this.link(node.url, this.inlines(node.children, current)));
          break;
        }
        case 'image':
          target.push(this.inlineImage(node.url, node.alt ?? ''));
          break;
        case 'html': {
          const value = node.value;
          const tag = htmlTag(value);
          if (tag?.closing) {
            const at = open.findLastIndex((o) => o.tag === tag.name);
            if (at !== -1) {
              close(at);
              break;
            }
          } else if (tag) {
            const attributes = attributesOf(value);
            if (tag.name === 'br') {
              pushText(target, '\n', current);
              break;
            }
            if (tag.name === 'img' && attributes.src !== undefined) {
              const image = this.inlineImage(attributes.src, attributes.alt ?? '');
              if (attributes['data-size'] === 'line' || attributes['data-size'] === 'original') image.data.size = attributes['data-size'];
              target.push(image);
              break;
            }
            // An `<a id>` is an anchor, which the model has on headings only: it stays as written.
            if (tag.name === 'a' && attributes.href !== undefined && attributes.id === undefined) {
              open.push({ tag: tag.name, marks: current, link: { url: attributes.href, outer: target } });
              target = [];
              break;
            }
            // A `<mark>` without a color GitBook has marks nothing: its text shows plain.
            const mark = tag.name === 'mark' ? colorMark(attributes.style ?? '') : tagMark(tag.name);
            if (mark || tag.name === 'mark') {
              open.push({ tag: tag.name, marks: current });
              if (mark) current = [...current, mark];
              break;
            }
          }
          pushText(target, value, current);
          break;
        }
        default:
          pushText(target, decodeEntities(toString(node)), current);
      }
    }
    // Tags left open end with the content: a link holds what followed it.
    close(0);
    return out;
  }

  /** A link holding text and inline images (a link written inside it gives its content). */
  private link(url: string, inner: InlineContent[]): InlineContent {
    const nodes: InlineContent[] = [];
    const add = (n: InlineContent) => {
      if (n.object === 'text') for (const leaf of n.leaves) pushText(nodes, leaf.text, leaf.marks);
      else if (n.type === 'inline-image') nodes.push(n);
      else if (n.type === 'link') n.nodes.forEach(add);
    };
    inner.forEach(add);
    return { object: 'inline', type: 'link', data: { ref: resolveRef(url, 'link', this.options.resolveLink) }, nodes: (nodes.length ? nodes : [text('')]) as never[] };
  }

  private inlineImage(url: string, alt: string): DocumentInlineImage {
    const ref = resolveRef(url, 'image', this.options.resolveLink) as DocumentInlineImage['data']['ref'];
    return { object: 'inline', type: 'inline-image', isVoid: true, data: alt ? { ref, caption: alt } : { ref } };
  }
}

function ensureText(nodes: InlineContent[]): InlineContent[] {
  return nodes.length ? nodes : [text('')];
}
