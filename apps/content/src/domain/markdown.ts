// Markdown as the rest of the service sees it: the parsed tree (mdast), the document cut at its
// headings (what search indexes) and the links it holds (what link checks and backlinks read).
import type { Definition, Root, RootContent } from 'mdast';
import { fromMarkdown, sections as documentSections } from '@quire/document';
import { parseGfm } from '@quire/service-kit/markdown';

// YAML front matter (GitBook's `description`, `icon`...) is page metadata, not text: without a
// front matter plugin remark would read its closing `---` as a setext heading underline.
const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** The document without its front matter, as mdast (GitHub-flavoured markdown). */
export function parseMarkdown(markdown: string): Root {
  return parseGfm(markdown.replace(FRONT_MATTER, ''));
}

export interface Section {
  /** The heading's anchor; empty for the text before the first heading. */
  anchor: string;
  /** The heading's text; empty before the first heading (the page's title stands for it). */
  title: string;
  /** The section's plain text as the document model reads it (no markup, no block tags), a line per block. */
  body: string;
}

/**
 * The document cut at every heading, as GitBook's block model reads it: anchors are GitBook's and
 * GitBook's block syntax (`{% hint %}`) is structure, not text. The text before the first heading
 * is a section with an empty anchor and title, present only when it holds text; a heading with
 * nothing under it is a section with an empty body (its title is still worth finding).
 */
export function sections(markdown: string): Section[] {
  return documentSections(fromMarkdown(markdown)).map((s) => ({
    anchor: s.anchor,
    title: s.heading.trim(),
    body: s.text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .join('\n'),
  }));
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

/** What search and link checks keep of a document. */
export const analyze = (markdown: string): { sections: Section[]; links: Link[] } => ({ sections: sections(markdown), links: links(markdown) });
