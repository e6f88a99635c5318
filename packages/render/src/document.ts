import {
  fromMarkdown,
  inlineReusableContents,
  parseMarkdown,
  resolveRefs,
  sections,
  toHtml,
  toMarkdown,
  type ContentRef,
  type JSONDocument,
  type LinkContext,
  type ToHtmlOptions,
} from '@quire/document';
import type { File, Page } from '@quire/proto/space-content';

// A page as the reader, exports and PDFs show it, through @quire/document (the one sanitized
// renderer): its document (as content's stored model reads, refs resolved) or its markdown.
// Relative links to other pages' markdown (or `/pages/<id>`, as imports write them) become links
// to the pages' URLs, images and files named by their path in the space (or `/files/<id>`)
// become the caller's file URLs.

export interface RenderContext {
  page: Page;
  pages: readonly Page[];
  files: readonly File[];
  hrefOf(page: Page): string;
  fileHref(file: File): string;
  /** The markdown of the revision's reusable contents the page may include, by id: rendered in place. */
  reusableContents?: ReadonlyMap<string, string>;
  /** The names of the members the page mentions, by user id. */
  memberNames?: ReadonlyMap<string, string>;
  /** OpenAPI operation blocks' HTML (see `ToHtmlOptions.openApi`); without it, their method and path. */
  openApi?: ToHtmlOptions['openApi'];
}

export interface Rendered {
  html: string;
  outline: { anchor: string; title: string; level: number }[];
}

/** Every page of the tree in reading order, depth first. */
export const allPages = (pages: readonly Page[]): Page[] => pages.flatMap((p) => [p, ...allPages(p.pages)]);

const EXTERNAL = /^[a-z][a-z0-9+.-]*:|^\/\/|^#/i;
const BY_ID = /^\/(files|pages)\/([\w-]+)$/;

/** The page path a relative markdown link names, seen from the page at `from` (GitBook's file layout: `a/b.md`, `a/README.md`). */
export function linkedPath(from: Page, href: string): string | undefined {
  const [target] = href.split('#');
  if (!target || !/\.md$/i.test(target)) return undefined;
  const file = from.pages.length ? `${from.path}/README.md` : `${from.path}.md`;
  const parts = target.startsWith('/') ? [] : file.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  const path = parts.join('/').replace(/\.md$/i, '');
  return path === 'README' ? '' : path.replace(/\/README$/, '');
}

/** `{% include "…" %}` tags as written (a cheap scan, fenced code too): which reusable contents a text may need. */
export const includeTargets = (markdown: string): string[] => [...markdown.matchAll(/\{% include "([^"\r\n]+)" %\}/g)].map((m) => m[1]!);

/** The reusable contents a document includes (its `reusable-content` blocks), by id. */
export function includedIds(document: JSONDocument): string[] {
  const ids: string[] = [];
  inlineReusableContents(document, (id) => (ids.push(id), undefined));
  return ids;
}

/** The page's document with its reusable contents in place, each parsed once. */
function withIncludes(document: JSONDocument, reusable: ReadonlyMap<string, string> | undefined): JSONDocument {
  if (!reusable?.size) return document;
  const parsed = new Map<string, JSONDocument>();
  return inlineReusableContents(document, (id) => {
    const markdown = reusable.get(id);
    if (markdown === undefined) return undefined;
    if (!parsed.has(id)) parsed.set(id, fromMarkdown(markdown));
    return parsed.get(id);
  });
}

/**
 * A page's markdown as its `.md` and llms outputs give it: with the reusable contents it includes
 * written in place (the document model's spelling then); as stored when it includes none.
 */
export function inlineMarkdown(markdown: string, reusable: ReadonlyMap<string, string> | undefined): string {
  if (!reusable?.size || !includeTargets(markdown).some((id) => reusable.has(id))) return markdown;
  const { document, frontmatter } = parseMarkdown(markdown);
  return toMarkdown(withIncludes(document, reusable), { frontmatter });
}

export const renderMarkdown = (markdown: string, ctx: RenderContext): Rendered => renderDocument(fromMarkdown(markdown), ctx);

/**
 * A page of a revision read with its content: its document when it says more than its markdown
 * (GetRevision's with_documents gives only those), else its markdown, which reads back exactly.
 */
export const renderPage = (ctx: RenderContext): Rendered =>
  ctx.page.documentJson === undefined ? renderMarkdown(ctx.page.markdown ?? '', ctx) : renderDocument(JSON.parse(ctx.page.documentJson) as JSONDocument, ctx);

/**
 * A page's document: refs already resolved to the revision's pages and files are kept, raw
 * destinations (markdown's, or those content did not resolve, such as files named by their path)
 * resolved here.
 */
export const renderDocument = (page: JSONDocument, ctx: RenderContext): Rendered => renderPrepared(prepareDocument(page, ctx), ctx);

/**
 * The document as it is rendered: its reusable contents in place, its refs resolved in the
 * revision (a spec file named by its path is then its file), for a caller that reads its blocks
 * before rendering it with `renderPrepared` (the reader's OpenAPI operations).
 */
export function prepareDocument(page: JSONDocument, ctx: RenderContext): JSONDocument {
  const nodes = allPages(ctx.pages);
  const byPath = new Map(nodes.map((p) => [p.path, p]));
  const byId = new Map(nodes.map((p) => [p.id, p]));
  const filesByName = new Map(ctx.files.map((f) => [f.name, f]));
  const filesById = new Map(ctx.files.map((f) => [f.id, f]));

  const resolveLink = (url: string, context: LinkContext): ContentRef | undefined => {
    if (EXTERNAL.test(url)) return undefined;
    // A file ref already resolved (by content) names its file.
    if ((context === 'image' || context === 'file') && filesById.has(url)) return { kind: 'file', file: url };
    const byIdForm = BY_ID.exec(url);
    if (byIdForm?.[1] === 'files' && filesById.has(byIdForm[2]!)) return { kind: 'file', file: byIdForm[2]! };
    if (byIdForm?.[1] === 'pages' && byId.has(byIdForm[2]!) && context !== 'image' && context !== 'file') return { kind: 'page', page: byIdForm[2]! };
    if (context === 'image' || context === 'file') {
      const name = decodeURIComponent(url.split(/[?#]/)[0]!.split('/').pop() ?? '');
      const file = filesByName.get(name);
      return file ? { kind: 'file', file: file.id } : undefined;
    }
    const path = linkedPath(ctx.page, url);
    const page = path === undefined ? undefined : path === '' ? nodes.find((p) => p.type === 'document') : byPath.get(path);
    return page ? { kind: 'page', page: page.id } : undefined;
  };

  return resolveRefs(withIncludes(page, ctx.reusableContents), resolveLink);
}

/** A document `prepareDocument` gave, as HTML with its outline. */
export function renderPrepared(document: JSONDocument, ctx: RenderContext): Rendered {
  const byId = new Map(allPages(ctx.pages).map((p) => [p.id, p]));
  const filesById = new Map(ctx.files.map((f) => [f.id, f]));
  const html = toHtml(document, {
    highlight: true,
    memberNames: ctx.memberNames,
    openApi: ctx.openApi,
    refToUrl: (ref) => {
      if (ref.kind === 'page') {
        const page = byId.get(ref.page);
        return page ? ctx.hrefOf(page) : undefined;
      }
      if (ref.kind === 'file') {
        const file = filesById.get(ref.file);
        return file ? ctx.fileHref(file) : undefined;
      }
      if (ref.kind === 'anchor' && ref.page && !ref.space) {
        const page = byId.get(ref.page);
        return page ? `${ctx.hrefOf(page)}#${ref.anchor}` : undefined;
      }
      return undefined;
    },
  });
  const outline = sections(document)
    .filter((s) => s.level > 0 && s.anchor)
    .map((s) => ({ anchor: s.anchor, title: s.heading, level: s.level }));
  return { html, outline };
}
