import type { File, Page } from '@quire/proto/space-content';
import { renderPage } from './document.ts';
import { READER_CSS } from './styles.ts';

// Pages of a revision as one HTML document to print: each page's title and its content rendered
// as the reader renders it, with the reader's stylesheet (its print rules hide the site chrome),
// a page break between pages. Links between the pages lead to their place in the document.

export interface BookPage {
  /** With its markdown, and its document when that says more (GetRevision's with_documents). */
  page: Page;
  /** Nesting in the page tree: 0 for top-level pages. */
  depth: number;
}

export interface Book {
  title: string;
  /** The pages to print, in order. */
  pages: BookPage[];
  /** The whole tree and the files the documents may name. */
  tree: readonly Page[];
  files: readonly File[];
  /** The URL a file's bytes are served at while printing. */
  fileHref(file: File): string;
  /** The revision's reusable contents' markdown, by id: printed where pages include them. */
  reusableContents?: ReadonlyMap<string, string>;
  /** The names of the members the pages mention, by user id. */
  memberNames?: ReadonlyMap<string, string>;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text and attribute values for the templates (the reader's too); only @quire/document's sanitized output goes in as is. */
export const esc = (s: string | undefined | null): string => (s ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const PRINT_CSS = `@page{size:A4;margin:18mm 16mm}body{font-size:11pt}.book-page{break-after:page}.book-page:last-child{break-after:auto}article h2{break-after:avoid}article pre,article figure,article tr{break-inside:avoid}`;

/** A whole HTML page (the reader's stylesheet inline: it loads nothing). */
export function htmlDocument(title: string, body: string, extraCss = ''): string {
  return `<!doctype html><html lang="en" data-theme="light"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${READER_CSS}${extraCss}</style></head><body>${body}</body></html>`;
}

export function bookHtml(book: Book): string {
  const printed = new Set(book.pages.map((p) => p.page.id));
  // A link to a page in the book is an anchor to it; one to a page left out leads nowhere.
  const hrefOf = (page: Page) => (printed.has(page.id) ? `#page-${page.id}` : '#');
  const sections = book.pages.map(({ page, depth }) => {
    const { html } = renderPage({
      page,
      pages: book.tree,
      files: book.files,
      hrefOf,
      fileHref: book.fileHref,
      reusableContents: book.reusableContents,
      memberNames: book.memberNames,
    });
    return `<section class="book-page" id="page-${esc(page.id)}" data-depth="${depth}"><article><h1>${esc(page.title || 'Untitled')}</h1>${page.description ? `<p class="lead">${esc(page.description)}</p>` : ''}${html}</article></section>`;
  });
  return htmlDocument(book.title, `<main>${sections.join('')}</main>`, PRINT_CSS);
}
