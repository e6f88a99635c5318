import type { File, Page } from '@quire/proto/space-content';
import { zipSync } from 'fflate';
import { esc } from './book.ts';
import { allPages, renderPage } from './document.ts';
import { READER_CSS } from './styles.ts';

// A revision as a static HTML site in a ZIP: one HTML file per document page at its path
// (`guide/install.html`), the reader's stylesheet beside them, the files under `files/<id>/`, a
// page tree on every page, and `index.html` at the first page. Every link is relative, so the
// site reads from a folder or any web server.

export interface StaticSite {
  title: string;
  /** The pages with their markdown, and their documents where those say more (GetRevision's with_documents). */
  tree: readonly Page[];
  /** The revision's files with their bytes. */
  files: readonly { file: File; data: Uint8Array }[];
  /** The revision's reusable contents' markdown, by id: rendered where pages include them. */
  reusableContents?: ReadonlyMap<string, string>;
  /** The names of the members the pages mention, by user id. */
  memberNames?: ReadonlyMap<string, string>;
}

const htmlPath = (page: Page) => `${page.path || page.id}.html`;
const fileArchivePath = (file: File) => `files/${file.id}/${file.name.replace(/[/\\]/g, '_') || 'file'}`;
/** From the page's folder back to the site's root. */
const rootOf = (page: Page) => '../'.repeat(htmlPath(page).split('/').length - 1);
// Path segments are URL-encoded in hrefs; names in the archive stay as written.
const href = (root: string, path: string) => root + path.split('/').map(encodeURIComponent).join('/');

function nav(pages: readonly Page[], root: string, current: string): string {
  const items = pages
    .filter((p) => !p.hidden && p.type !== 'link')
    .map((p) => {
      const children = nav(p.pages, root, current);
      if (p.type === 'group') return `<li><span class="grouptitle">${esc(p.title)}</span>${children}</li>`;
      return `<li><a href="${esc(href(root, htmlPath(p)))}"${p.id === current ? ' aria-current="page"' : ''}>${esc(p.title)}</a>${children}</li>`;
    });
  return items.length ? `<ul>${items.join('')}</ul>` : '';
}

function pageHtml(site: StaticSite, page: Page): string {
  const root = rootOf(page);
  const { html } = renderPage({
    page,
    pages: site.tree,
    files: site.files.map((f) => f.file),
    hrefOf: (p) => href(root, htmlPath(p)),
    fileHref: (f) => href(root, fileArchivePath(f)),
    reusableContents: site.reusableContents,
    memberNames: site.memberNames,
  });
  const body = `<header class="top"><a class="brand" href="${esc(href(root, 'index.html'))}">${esc(site.title)}</a></header><div class="shell"><aside class="sidebar"><nav aria-label="Pages">${nav(site.tree, root, page.id)}</nav></aside><main id="content"><article><h1>${esc(page.title)}</h1>${page.description ? `<p class="lead">${esc(page.description)}</p>` : ''}${html}</article></main></div>`;
  return `<!doctype html><html lang="en" data-theme="light"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(page.title === site.title ? page.title : `${page.title} | ${site.title}`)}</title><link rel="stylesheet" href="${esc(href(root, 'reader.css'))}"></head><body>${body}</body></html>`;
}

/** The ZIP's bytes. */
export function staticSiteZip(site: StaticSite): Uint8Array {
  const enc = new TextEncoder();
  const entries: Record<string, Uint8Array> = { 'reader.css': enc.encode(READER_CSS) };
  const documents = allPages(site.tree).filter((p) => p.type === 'document');
  for (const page of documents) entries[htmlPath(page)] = enc.encode(pageHtml(site, page));
  const first = documents.find((p) => !p.hidden) ?? documents[0];
  const start = first ? href('', htmlPath(first)) : undefined;
  // A page at the path `index` is the start page itself.
  entries['index.html'] ??= enc.encode(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(site.title)}</title>${start ? `<meta http-equiv="refresh" content="0; url=${esc(start)}">` : ''}<link rel="stylesheet" href="reader.css"></head><body><main id="content"><h1>${esc(site.title)}</h1>${start ? `<p><a href="${esc(start)}">${esc(first!.title)}</a></p>` : '<p>No pages.</p>'}</main></body></html>`,
  );
  // Files are usually compressed already (images): stored as they are.
  for (const { file, data } of site.files) entries[fileArchivePath(file)] = data;
  return zipSync(Object.fromEntries(Object.entries(entries).map(([path, data]) => [path, [data, { level: path.startsWith('files/') ? 0 : 6 }]])));
}
