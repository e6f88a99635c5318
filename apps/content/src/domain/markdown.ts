// Markdown as the rest of the service sees it: the document model read once (stored, with its
// destinations raw), the document cut at its headings (what search indexes) and the links it holds
// (what link checks and backlinks read).
import { fromMarkdown, mapRefs, sections as documentSections, type JSONDocument, type LinkContext } from '@quire/document';

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
export function sectionsOf(document: JSONDocument): Section[] {
  return documentSections(document).map((s) => ({
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

/**
 * Every destination of the document in document order: links, mentions, images, files, content
 * references (table cells too), reference-style ones resolved by the parser. `document` is as
 * stored: destinations raw, as written.
 */
export function linksOf(document: JSONDocument): Link[] {
  const out: Link[] = [];
  mapRefs(document, (ref, context) => {
    const url = ref.kind === 'url' ? ref.url : ref.kind === 'file' ? ref.file : undefined;
    const target = url === undefined ? undefined : classifyHref(url);
    if (target) out.push({ relation: EMBEDS.has(context) ? 'embed' : 'link', ...target });
    return ref;
  });
  return out;
}

const EMBEDS = new Set<LinkContext>(['image']);

/**
 * The document as content stores it (destinations raw, resolved when read) and what search and
 * link checks keep of it: the model a client gave, else the markdown read. Either way they come
 * from the stored model, so a page reads the same to search and links however it was written.
 */
export function analyze(body: { markdown: string; document?: JSONDocument }): { document: JSONDocument; sections: Section[]; links: Link[] } {
  const document = body.document ?? fromMarkdown(body.markdown);
  return { document, sections: sectionsOf(document), links: linksOf(document) };
}
