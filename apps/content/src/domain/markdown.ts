// Markdown as the rest of the service sees it: the parsed tree (mdast), the document cut at its
// headings (what search indexes) and the links it holds (what link checks and backlinks read).
import type { Definition, Heading, Nodes, Root, RootContent } from 'mdast';
import { parseGfm } from '@quire/service-kit/markdown';

// YAML front matter (GitBook's `description`, `icon`...) is page metadata, not text: without a
// front matter plugin remark would read its closing `---` as a setext heading underline.
const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** The document without its front matter, as mdast (GitHub-flavoured markdown). */
export function parseMarkdown(markdown: string): Root {
  return parseGfm(markdown.replace(FRONT_MATTER, ''));
}

/** Plain text of a node: what a reader sees, without markup or raw HTML. */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
      return node.value;
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    case 'break':
      return ' ';
    case 'html':
    case 'definition':
    case 'footnoteDefinition':
    case 'yaml':
      return '';
    default:
      if (!('children' in node)) return '';
      // Blocks (paragraphs, items, rows) are separated; inline runs are joined as they are.
      return node.children.map((c) => plainText(c)).join(isBlockParent(node) ? '\n' : node.type === 'tableRow' ? ' ' : '');
  }
}

const isBlockParent = (node: Nodes) => ['root', 'blockquote', 'list', 'listItem', 'table', 'footnoteDefinition'].includes(node.type);

/**
 * GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. Letters and digits of
 * any script are kept, as GitHub does.
 */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Slugs made unique within one document the way GitHub does it: `a`, `a-1`, `a-2`... */
export function slugger() {
  const seen = new Map<string, number>();
  return (text: string) => {
    const base = slugify(text);
    let slug = base;
    let n = seen.get(base) ?? 0;
    while (seen.has(slug)) slug = `${base}-${++n}`;
    seen.set(base, n);
    seen.set(slug, 0);
    return slug;
  };
}

// GitBook writes an explicit anchor into the heading: `## Title <a href="#custom" id="custom"></a>`.
const EXPLICIT_ANCHOR = /<a\b[^>]*\bid="([^"]+)"/;

function explicitAnchor(heading: Heading): string | undefined {
  for (const child of heading.children) {
    if (child.type === 'html') {
      const match = EXPLICIT_ANCHOR.exec(child.value);
      if (match) return match[1];
    }
  }
  return undefined;
}

export interface Section {
  /** The heading's anchor; empty for the text before the first heading. */
  anchor: string;
  /** The heading's text; empty before the first heading (the page's title stands for it). */
  title: string;
  /** The section's plain text, blocks separated by newlines. */
  body: string;
}

/**
 * The document cut at every heading. The text before the first heading is a section with an empty
 * anchor and title, present only when it holds text; a heading with nothing under it is a section
 * with an empty body (its title is still worth finding).
 */
export const sections = (markdown: string): Section[] => sectionsOf(parseMarkdown(markdown));

function sectionsOf(tree: Root): Section[] {
  const slug = slugger();
  const out: Section[] = [];
  let current: Section & { blocks: string[] } = { anchor: '', title: '', body: '', blocks: [] };
  const close = () => {
    const body = current.blocks.filter((b) => b.trim() !== '').join('\n');
    if (current.anchor !== '' || body !== '') out.push({ anchor: current.anchor, title: current.title, body });
  };
  for (const node of tree.children) {
    if (node.type === 'heading') {
      close();
      const title = plainText(node).trim();
      const explicit = explicitAnchor(node);
      const anchor = explicit ?? slug(title);
      current = { anchor, title, body: '', blocks: [] };
    } else {
      current.blocks.push(plainText(node));
    }
  }
  close();
  return out;
}

export type LinkKind = 'url' | 'page' | 'anchor' | 'file';

export interface Link {
  /** `link` (a hyperlink) or `embed` (an image). */
  relation: 'link' | 'embed';
  kind: LinkKind;
  /**
   * `url`: the URL as written. `page`: the page id of `/pages/<id>`, or `path:` and the relative
   * markdown path as written (`path:../guide/setup.md`), resolved against the linking page when
   * read, since a document (stored once by content hash) may sit at several paths. `file`: the file
   * id of `/files/<id>`. `anchor`: empty (the anchor is in the same page).
   */
  target: string;
  /** The `#fragment`, without `#`; empty when none. */
  anchor: string;
}

/** Prefix of page targets given as a relative markdown path rather than a page id. */
export const PATH_TARGET = 'path:';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** What a link's destination refers to (see `Link`); undefined for an empty destination. */
export function classifyHref(href: string): Omit<Link, 'relation'> | undefined {
  const url = href.trim();
  if (url === '') return undefined;
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const anchor = hash === -1 ? '' : safeDecode(url.slice(hash + 1));
  if (base === '') return anchor === '' ? undefined : { kind: 'anchor', target: '', anchor };
  if (SCHEME.test(base) || base.startsWith('//')) return { kind: 'url', target: url, anchor: '' };
  const internal = /^\/(pages|files)\/([^/?]+)\/?$/.exec(base);
  if (internal) return { kind: internal[1] === 'pages' ? 'page' : 'file', target: safeDecode(internal[2]!), anchor };
  const path = base.split('?')[0]!;
  if (!path.startsWith('/') && /\.md$/i.test(path)) return { kind: 'page', target: PATH_TARGET + safeDecode(path), anchor };
  // Any other path (`/o/.../s/...`, `images/x.png`) is a URL relative to where the page is shown.
  return { kind: 'url', target: url, anchor: '' };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Every link and image of the document, in document order; reference-style ones resolved. */
export const links = (markdown: string): Link[] => linksOf(parseMarkdown(markdown));

function linksOf(tree: Root): Link[] {
  const definitions = new Map<string, Definition>();
  walk(tree, (node) => {
    if (node.type === 'definition') definitions.set(node.identifier, node);
  });
  const out: Link[] = [];
  walk(tree, (node) => {
    let url: string | undefined;
    if (node.type === 'link' || node.type === 'image') url = node.url;
    else if (node.type === 'linkReference' || node.type === 'imageReference') url = definitions.get(node.identifier)?.url;
    else return;
    const target = url === undefined ? undefined : classifyHref(url);
    if (target) out.push({ relation: node.type === 'image' || node.type === 'imageReference' ? 'embed' : 'link', ...target });
  });
  return out;
}

function walk(node: Root | RootContent, visit: (node: Root | RootContent) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
}

/** What search and link checks keep of a document, from one parse (parsing is most of the cost). */
export function analyze(markdown: string): { sections: Section[]; links: Link[] } {
  const tree = parseMarkdown(markdown);
  return { sections: sectionsOf(tree), links: linksOf(tree) };
}
