import type { BlockContent, Html, ListItem, PhrasingContent, Root, RootContent, TableRow } from 'mdast';
import { frontmatterToMarkdown } from 'mdast-util-frontmatter';
import { gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemToMarkdown } from 'mdast-util-gfm-task-list-item';
import { mathToMarkdown } from 'mdast-util-math';
import { toMarkdown as writeMdast, type Join, type Options } from 'mdast-util-to-markdown';
import { colorStyle, escapeAttribute, escapeText, MARK_TAGS } from './markdown/html.ts';
import { writeHtmlInlines, writeHtmlTable } from './markdown/html-table.ts';
import { formatTag, gitbookTagToMarkdown, type GitbookTag } from './markdown/tags.ts';
import { emojiText, inlineText, nestLeaves } from './nodes.ts';
import { refLabel, refUrl, type LinkContext, type RefToUrl } from './refs.ts';
import type {
  ContentRef,
  DocumentBlock,
  DocumentBlockImage,
  DocumentBlockImages,
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentFragment,
  DocumentTextLeaf,
  DocumentTextMark,
  InlineContent,
  JSONDocument,
  Length,
} from './types.ts';

export interface ToMarkdownOptions {
  /** Destination written for a ref (e.g. a page id → its path); default: the raw destination kept. */
  refToUrl?: RefToUrl;
  /** YAML front matter to write first (parseMarkdown's `frontmatter`). */
  frontmatter?: string;
}

/** A container's opening tag: what follows it starts on the next line, as GitBook writes it. */
type Tag = GitbookTag & { opens?: boolean; closes?: boolean };

const open = (value: string): Tag => ({ type: 'gitbookTag', value, opens: true });
const close = (name: string): Tag => ({ type: 'gitbookTag', value: `{% end${name} %}`, closes: true });
const html = (value: string): Html => ({ type: 'html', value });

// GitBook's spelling: `*` bullets, `_emphasis_`, `**strong**`, `***` dividers, fenced code, list
// items indented to the tab stop when their blocks are apart.
const tagJoin: Join = (left, right) => (('opens' in left && left.opens) || ('closes' in right && right.closes) ? 0 : undefined);
const BASE: Options = {
  bullet: '*',
  emphasis: '_',
  strong: '*',
  rule: '*',
  ruleRepetition: 3,
  fences: true,
  listItemIndent: 'mixed',
  join: [tagJoin],
  // GitBook escapes braces that would read as a `{% tag %}`. mdast-util-to-markdown stays at 2.1.0:
  // later releases stop escaping underscores inside words, which GitBook's files escape.
  unsafe: [
    { character: '{', after: '%', inConstruct: 'phrasing' },
    { character: '}', before: '%', inConstruct: 'phrasing' },
  ],
  // The extensions are typed against the newer mdast-util-to-markdown they depend on; same shape.
  extensions: [
    gfmTableToMarkdown(),
    gfmStrikethroughToMarkdown(),
    gfmTaskListItemToMarkdown(),
    mathToMarkdown({ singleDollarTextMath: false }),
    frontmatterToMarkdown(['yaml']),
    gitbookTagToMarkdown,
  ] as unknown as Options['extensions'],
};

/** GitBook JSONDocument → markdown as GitBook's Git Sync writes it. */
export function toMarkdown(document: JSONDocument, options: ToMarkdownOptions = {}): string {
  const writer = new Writer(options);
  const children: RootContent[] = [];
  if (options.frontmatter !== undefined) children.push({ type: 'yaml', value: options.frontmatter });
  for (const block of document.nodes) children.push(...writer.block(block));
  const root: Root = { type: 'root', children };
  return children.length ? writeMdast(root, BASE) : '';
}

/** How inline content is spelled: as markdown, or inside a pipe table cell's HTML (`<p>`, `<li>`) with tags for marks, links and line breaks, as GitBook writes them there. */
type Spelling = 'markdown' | 'html';

/** Whether a pipe table cell can hold the block (see cellHtml): paragraphs, and lists of them. */
const inPipeCell = (block: DocumentBlock): boolean =>
  block.type === 'paragraph' || ((block.type === 'list-unordered' || block.type === 'list-ordered') && block.nodes.every((item) => item.nodes.every(inPipeCell)));

/** Whether a pipe table says all of it: a plain grid of text columns whose cells hold paragraphs and lists. */
function pipeTable(block: DocumentBlockTable): boolean {
  const { view, definition } = block.data;
  if (view.type !== 'grid' || view.hideHeader || view.columnWidths || block.data.fullWidth) return false;
  const definitions = Object.values(definition);
  if (definitions.length !== view.columns.length || definitions.some((d, i) => d.type !== 'text' || view.columns[i] !== d.id)) return false;
  return block.fragments.every((f) => f.nodes.every(inPipeCell));
}

/**
 * The label of a reference's link, a file or page name GitBook writes as is (`metadata_endpoint.yaml`
 * unescaped); a name with characters markdown would read is escaped as usual.
 */
function label(url: string): PhrasingContent {
  const name = refLabel(url);
  return /^[\w.-]+$/.test(name) ? html(name) : { type: 'text', value: name };
}

function lengthAttribute(length: Length | undefined): string | undefined {
  if (length === undefined) return undefined;
  return typeof length === 'number' ? String(length) : `${length.value}${length.unit === '%' ? '%' : ''}`;
}

class Writer {
  constructor(private readonly options: ToMarkdownOptions) {}

  private url(ref: ContentRef, context: LinkContext): string {
    return refUrl(ref, context, this.options.refToUrl) ?? '';
  }

  blocks(blocks: readonly DocumentBlock[]): RootContent[] {
    const out: RootContent[] = [];
    for (const block of blocks) out.push(...this.block(block));
    return out;
  }

  block(block: DocumentBlock): RootContent[] {
    switch (block.type) {
      case 'paragraph':
        return [{ type: 'paragraph', children: this.phrasing(block.nodes) }];
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const children = this.phrasing(block.nodes);
        const id = block.data?.id;
        if (id) children.push({ type: 'text', value: ' ' }, html(`<a href="#${escapeAttribute(id)}" id="${escapeAttribute(id)}"></a>`));
        return [{ type: 'heading', depth: Number(block.type.slice(-1)) as 1 | 2 | 3, children }];
      }
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks': {
        const tasks = block.type === 'list-tasks';
        const items: ListItem[] = block.nodes.map((item) => {
          const children = this.blocks(item.nodes) as BlockContent[];
          // GitBook leaves a blank line between an item's blocks unless they are its text and sub-lists.
          const spread = children.slice(1).some((child) => child.type !== 'list');
          return { type: 'listItem', spread, checked: tasks ? item.data?.checked === true : null, children };
        });
        const start = block.type === 'list-ordered' ? (block.data.start ?? 1) : null;
        return [{ type: 'list', ordered: block.type === 'list-ordered', start, spread: false, children: items }];
      }
      case 'divider':
        return [{ type: 'thematicBreak' }];
      case 'blockquote':
        return [{ type: 'blockquote', children: this.blocks(block.nodes) as BlockContent[] }];
      case 'hint':
        return [open(formatTag('hint', { style: block.data.style })), ...this.blocks(block.nodes), close('hint')];
      case 'code': {
        const value = block.nodes.map((line) => inlineText(line.nodes as InlineContent[])).join('\n');
        const code: RootContent = { type: 'code', lang: block.data.syntax ?? null, value };
        const { title, overflow, lineNumbers, fullWidth } = block.data;
        if (title === undefined && overflow === undefined && lineNumbers === undefined && fullWidth === undefined) return [code];
        const attributes = {
          title,
          overflow,
          lineNumbers: lineNumbers === undefined ? undefined : String(lineNumbers),
          fullWidth: fullWidth === undefined ? undefined : String(fullWidth),
        };
        return [open(formatTag('code', attributes)), code, close('code')];
      }
      case 'math':
        return [{ type: 'math', value: block.data.formula }];
      case 'images':
        return [this.images(block)];
      case 'file':
      case 'embed': {
        const tag = block.type === 'file' ? formatTag('file', { src: this.url(block.data.ref, 'file') }) : formatTag('embed', { url: block.data.url });
        if (!block.data.caption) return [{ type: 'gitbookTag', value: tag }];
        return [open(tag), { type: 'paragraph', children: [{ type: 'text', value: block.data.caption }] }, close(block.type)];
      }
      case 'drawing':
        return block.data.ref ? [{ type: 'paragraph', children: [{ type: 'image', url: this.url(block.data.ref, 'image'), alt: '' }] }] : [];
      case 'content-ref': {
        const url = this.url(block.data.ref, 'content-ref');
        return [open(formatTag('content-ref', { url })), { type: 'paragraph', children: [{ type: 'link', url, children: [label(url)] }] }, close('content-ref')];
      }
      case 'swagger': {
        const src = this.url(block.data.ref, 'file');
        return [
          open(formatTag('openapi', { src, path: block.data.path, method: block.data.method })),
          { type: 'paragraph', children: [{ type: 'link', url: src, children: [label(src)] }] },
          close('openapi'),
        ];
      }
      case 'openapi-operation':
        return [open(formatTag('openapi-operation', { spec: block.data.ref.spec, path: block.data.path, method: block.data.method })), close('openapi-operation')];
      case 'expandable': {
        const title = block.fragments.find((f) => f.type === 'expandable-title')?.nodes[0];
        const body = block.fragments.find((f) => f.type === 'expandable-body')?.nodes ?? [];
        const summary = title ? writeHtmlInlines(title.nodes, this.options.refToUrl) : '';
        const content = body.length === 1 && body[0]!.type === 'paragraph' && inlineText(body[0]!.nodes) === '' ? [] : this.blocks(body);
        return [html('<details>'), html(`<summary>${summary}</summary>`), ...content, html('</details>')];
      }
      case 'tabs': {
        const out: RootContent[] = [open('{% tabs %}')];
        for (const item of block.nodes) out.push(open(formatTag('tab', { title: item.data.title })), ...this.blocks(item.nodes), close('tab'));
        out.push(close('tabs'));
        return out;
      }
      case 'table':
        return [this.table(block)];
      case 'list-item':
      case 'tabs-item':
        return this.blocks(block.nodes as DocumentBlock[]);
      case 'code-line':
        return [{ type: 'paragraph', children: this.phrasing(block.nodes as InlineContent[]) }];
      case 'image':
        return [this.images({ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [block] })];
      case 'reusable-content':
        // The caller may write the reusable content's file path; the ref as read otherwise.
        return [{ type: 'gitbookTag', value: `{% include "${this.url(block.data.ref, 'include') || block.data.ref.reusableContent}" %}` }];
      // Integration blocks have no markdown of their own in Git Sync.
      default:
        return [];
    }
  }

  private images(block: DocumentBlockImages): RootContent {
    const [only] = block.nodes;
    if (block.nodes.length === 1 && only && !only.fragments.length && only.data.width === undefined && !block.data.align) {
      return { type: 'paragraph', children: [{ type: 'image', url: this.url(only.data.ref, 'image'), alt: only.data.alt ?? '' }] };
    }
    const figures = block.nodes.map((image) => this.figure(image));
    const inner = figures.join(' ');
    if (block.data.align) return html(`<div align="${block.data.align}">${inner}</div>`);
    return html(block.nodes.length > 1 ? `<div>${inner}</div>` : inner);
  }

  private figure(image: DocumentBlockImage): string {
    let img = `<img src="${escapeAttribute(this.url(image.data.ref, 'image'))}" alt="${escapeAttribute(image.data.alt ?? '')}"`;
    const width = lengthAttribute(image.data.width);
    if (width !== undefined) img += ` width="${escapeAttribute(width)}"`;
    const caption = image.fragments.find((f) => f.fragment === 'caption');
    const captionText = caption ? caption.nodes.map((p) => inlineText(p.nodes)).join(' ') : undefined;
    const figcaption = captionText === undefined ? '' : captionText === '' ? '<figcaption></figcaption>' : `<figcaption><p>${escapeText(captionText)}</p></figcaption>`;
    return `<figure>${img}>${figcaption}</figure>`;
  }

  private table(block: DocumentBlockTable): RootContent {
    if (!pipeTable(block)) return html(writeHtmlTable(block, this.options.refToUrl));
    const { view, definition, records } = block.data;
    const fragments = new Map(block.fragments.map((f) => [f.fragment, f]));
    const columns = view.columns.filter((c) => definition[c]);
    const cell = (children: PhrasingContent[]) => ({ type: 'tableCell' as const, children });
    const head: TableRow = { type: 'tableRow', children: columns.map((c) => cell([{ type: 'text', value: definition[c]!.title }])) };
    const rows = Object.values(records)
      .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
      .map((record): TableRow => ({
        type: 'tableRow',
        children: columns.map((c) => {
          const value = record.values[c];
          const f = typeof value === 'string' ? fragments.get(value) : undefined;
          if (f) return cell(this.cellPhrasing(f));
          return cell(value === undefined || typeof value === 'object' ? [] : [{ type: 'text', value: String(value) }]);
        }),
      }));
    const align = columns.map((c) => {
      const d = definition[c]!;
      return d.type === 'text' && d.textAlignment !== 'left' ? d.textAlignment : null;
    });
    return { type: 'table', align, children: [head, ...rows] };
  }

  /**
   * A cell of one line of text as markdown, as GitBook writes it; anything more as HTML, as
   * GitBook does: `<p>a<br>b</p>`, `<p>a</p><ul><li>b</li></ul>`.
   */
  private cellPhrasing(f: DocumentFragment): PhrasingContent[] {
    const [only] = f.nodes;
    if (f.nodes.length === 1 && only!.type === 'paragraph' && !inlineText((only as DocumentBlockParagraph).nodes).includes('\n'))
      return this.phrasing((only as DocumentBlockParagraph).nodes);
    return this.cellHtml(f.nodes, false);
  }

  /** Blocks (inPipeCell's) as a cell's HTML; a list item's lone paragraph without its `<p>`, as writeHtmlTable writes a cell's. */
  private cellHtml(blocks: readonly DocumentBlock[], inItem: boolean): PhrasingContent[] {
    const out: PhrasingContent[] = [];
    const lone = inItem && blocks.length === 1;
    for (const block of blocks) {
      if (block.type === 'paragraph') {
        const inner = this.phrasing(block.nodes, 'html');
        out.push(...(lone ? inner : [html('<p>'), ...inner, html('</p>')]));
      } else if (block.type === 'list-unordered' || block.type === 'list-ordered') {
        const start = block.type === 'list-ordered' && block.data.start !== undefined && block.data.start !== 1 ? ` start="${block.data.start}"` : '';
        const tag = block.type === 'list-ordered' ? 'ol' : 'ul';
        out.push(html(`<${tag}${start}>`));
        for (const item of block.nodes) out.push(html('<li>'), ...this.cellHtml(item.nodes as DocumentBlock[], true), html('</li>'));
        out.push(html(`</${tag}>`));
      }
    }
    return out;
  }

  /** Inline content as mdast phrasing, marks nested so the widest run is outermost. */
  phrasing(nodes: readonly InlineContent[], spelling: Spelling = 'markdown'): PhrasingContent[] {
    const out: PhrasingContent[] = [];
    let leaves: DocumentTextLeaf[] = [];
    const flush = () => {
      if (leaves.length)
        out.push(
          ...nestLeaves<PhrasingContent>(
            leaves,
            (mark, children, value) => wrap(mark, children, value, spelling),
            (value) => textNodes(value, spelling),
          ),
        );
      leaves = [];
    };
    for (const node of nodes) {
      if (node.object === 'text') {
        leaves.push(...node.leaves);
        continue;
      }
      flush();
      switch (node.type) {
        case 'link': {
          const url = this.url(node.data.ref, 'link');
          const children = this.phrasing(node.nodes, spelling);
          // A `|` would end the pipe table's cell, even inside a tag.
          if (spelling === 'html') out.push(html(`<a href="${escapeAttribute(url).replace(/\|/g, '&#x7C;')}">`), ...children, html('</a>'));
          else out.push({ type: 'link', url, children });
          break;
        }
        case 'mention': {
          const url = this.url(node.data.ref, 'mention');
          out.push({ type: 'link', url, title: 'mention', children: [label(url)] });
          break;
        }
        case 'inline-image': {
          const url = this.url(node.data.ref, 'image');
          if (node.data.size) out.push(html(`<img src="${escapeAttribute(url)}" alt="${escapeAttribute(node.data.caption ?? '')}" data-size="${node.data.size}">`));
          else out.push({ type: 'image', url, alt: node.data.caption ?? '' });
          break;
        }
        case 'inline-math':
          out.push({ type: 'inlineMath', value: node.data.formula });
          break;
        case 'emoji':
          out.push({ type: 'text', value: emojiText(node.data.code) });
          break;
        default:
          out.push({ type: 'text', value: inlineText([node]) });
      }
    }
    flush();
    return out;
  }
}

/** Text with hard breaks where the leaf holds a newline (`<br>` in a table cell's HTML). */
function textNodes(value: string, spelling: Spelling): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  value.split('\n').forEach((part, i) => {
    if (i > 0) out.push(spelling === 'markdown' ? { type: 'break' } : html('<br>'));
    if (part) out.push({ type: 'text', value: part });
  });
  return out;
}

/** A mark around its content: markdown where markdown says it, else (and inside HTML) its tag. */
function wrap(mark: DocumentTextMark, children: PhrasingContent[], value: string, spelling: Spelling): PhrasingContent[] {
  if (spelling === 'html' && mark.type !== 'color') {
    const tag = MARK_TAGS[mark.type]!;
    return [html(`<${tag}>`), ...(mark.type === 'code' ? textNodes(value, spelling) : children), html(`</${tag}>`)];
  }
  switch (mark.type) {
    case 'bold':
      return [{ type: 'strong', children }];
    case 'italic':
      return [{ type: 'emphasis', children }];
    case 'strikethrough':
      return [{ type: 'delete', children }];
    case 'code':
      return [{ type: 'inlineCode', value }];
    case 'color':
      return [html(`<mark style="${colorStyle(mark)}">`), ...children, html('</mark>')];
    default: {
      const tag = MARK_TAGS[mark.type]!;
      return [html(`<${tag}>`), ...children, html(`</${tag}>`)];
    }
  }
}
