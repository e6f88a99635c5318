// Pages as GitBook's JSONDocument: the stored model (or the stored markdown read) with its links
// resolved to refs of the revision, and documents given by clients made the stored model.
import { checkClientJson, InvalidArgumentError } from '@quire/service-kit';
import { fromMarkdown, mapRefs, rawRef, resolveRefs, type ContentRef, type JSONDocument, type RefToUrl, type ResolveLink } from '@quire/document';
import { resolvePagePath } from './links.ts';
import { classifyHref, PATH_TARGET } from './markdown.ts';
import { flatten, type Tree } from './tree.ts';

/** Where a document is read: the page holding it (relative paths resolve against it), if known. */
export interface DocumentPlace {
  path: string;
  hasChildren: boolean;
}

/**
 * Destinations the revision can name as refs: its pages (by `/pages/<id>` or, read in a page, by
 * relative markdown path) and anchors in them, its files (by `/files/<id>`), anchors of the page
 * itself. Anything else (outside URLs, paths to no page) stays as written.
 */
export function linkResolver(tree: Tree, from?: DocumentPlace): ResolveLink {
  let pages: { ids: Set<string>; byPath: Map<string, string> } | undefined;
  const index = () => {
    if (!pages) {
      const located = flatten(tree.pages);
      pages = { ids: new Set(located.map((l) => l.page.id)), byPath: new Map(located.map((l) => [l.path, l.page.id])) };
    }
    return pages;
  };
  const files = new Set(tree.files.map((f) => f.id));
  return (url): ContentRef | undefined => {
    const link = classifyHref(url);
    switch (link?.kind) {
      case 'file':
        return files.has(link.target) ? { kind: 'file', file: link.target } : undefined;
      case 'anchor':
        return { kind: 'anchor', anchor: link.anchor };
      case 'page': {
        let id: string | undefined;
        if (link.target.startsWith(PATH_TARGET)) {
          const path = from && resolvePagePath(from, link.target.slice(PATH_TARGET.length));
          id = path === undefined ? undefined : index().byPath.get(path);
        } else id = index().ids.has(link.target) ? link.target : undefined;
        if (id === undefined) return undefined;
        return link.anchor ? { kind: 'anchor', anchor: link.anchor, page: id } : { kind: 'page', page: id };
      }
      default:
        return undefined;
    }
  };
}

/**
 * A stored document as GitBook's JSONDocument, links resolved in the revision: the stored model
 * when there is one (a fresh value from the database, resolved in place), else its markdown read.
 */
export const documentOf = (stored: { markdown: string; document: JSONDocument | null }, tree: Tree, from?: DocumentPlace): JSONDocument =>
  resolveRefs(stored.document ?? fromMarkdown(stored.markdown), linkResolver(tree, from));

/**
 * Refs written back as the links content reads (see `classifyHref`): pages as `/pages/<id>`, files
 * of the revision as `/files/<id>`; other refs (raw destinations, anchors) as toMarkdown writes them.
 */
export function refWriter(tree: Tree): RefToUrl {
  const files = new Set(tree.files.map((f) => f.id));
  return (ref) => {
    if (ref.kind === 'page' && !ref.space) return `/pages/${encodeURIComponent(ref.page)}`;
    if (ref.kind === 'anchor' && ref.page && !ref.space) return `/pages/${encodeURIComponent(ref.page)}#${ref.anchor}`;
    if (ref.kind === 'file' && files.has(ref.file)) return `/files/${encodeURIComponent(ref.file)}`;
    return undefined;
  };
}

// A JSONDocument's JSON is several times the size of its markdown; this bounds the parse.
export const MAX_DOCUMENT_JSON = 5_000_000;

/**
 * A client's JSONDocument (JSON text) as content stores it: its refs to the revision's pages and
 * files written as the destinations `linkResolver` reads back (`/pages/<id>`, `/files/<id>`), so
 * that the stored model, like one read from markdown, holds destinations as written and serves
 * any revision; other refs (users, outside URLs, other spaces) as given. The gateway checks it
 * against GitBook's schema; this only refuses what content cannot store, naming the field `at`.
 */
export function storedDocument(at: string, json: string, tree: Tree): JSONDocument {
  if (json.length > MAX_DOCUMENT_JSON) throw new InvalidArgumentError(`${at}.document: must be at most ${MAX_DOCUMENT_JSON} characters of JSON`);
  // Bounded here, not only at the gateway: any service may call with a document, and reading one
  // recurses once per level.
  checkClientJson(json, `${at}.document`);
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch {
    throw new InvalidArgumentError(`${at}.document: not JSON`);
  }
  const d = document as Partial<JSONDocument> | null;
  if (typeof d !== 'object' || d === null || d.object !== 'document' || !Array.isArray(d.nodes)) {
    throw new InvalidArgumentError(`${at}.document: must be a JSONDocument ({object: 'document', data, nodes})`);
  }
  const write = refWriter(tree);
  try {
    return mapRefs(d as JSONDocument, (ref, context) => {
      const url = write(ref, context);
      return url === undefined ? ref : rawRef(url, context);
    });
  } catch (e) {
    throw new InvalidArgumentError(`${at}.document: not a valid JSONDocument (${(e as Error).message})`);
  }
}
