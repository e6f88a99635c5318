// Imports of one file (GitBook's `markdown`, `html`, `docx`) or of a ZIP (`zip`, `notion`,
// `confluence`) as pages and files. A `zip` is a Markdown folder read as Git import reads a
// repository (@quire/gitbook-layout's planImport). HTML of every kind goes through the website
// import's converter (convert.ts); markdown through @quire/document. An export archive is read as
// a small site at an origin of its own (ORIGIN), so links between its pages and to its images
// resolve like a website's and never leave it.
import { fromMarkdown, toMarkdown as documentToMarkdown } from '@quire/document';
import { planImport, plannedContent, RepositoryError, snapshotOfFiles, type PlannedContent } from '@quire/gitbook-layout';
import { InvalidArgumentError } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import mime from 'mime-types';
import { pageKey, parsePage, toMarkdown } from './convert.ts';
import { readArchive, type ArchiveEntry, type ArchiveLimits } from './archive.ts';
import type { ReusableContentInput } from '../domain/reusable.ts';

export const FILE_SOURCES = ['markdown', 'html', 'docx', 'zip', 'notion', 'confluence'] as const;
export type FileSource = (typeof FILE_SOURCES)[number];

export interface ImportedPage {
  id: string;
  title: string;
  markdown: string;
  pages: ImportedPage[];
}

export interface ImportedFile {
  /** Given when pages link to the file by id (`/files/<id>`); made by content otherwise. */
  id?: string;
  name: string;
  contentType: string;
  data: Buffer;
}

export interface Imported {
  /** The revision's pages, as content's CreateRevision takes them. */
  pages: PlannedContent[];
  files: ImportedFile[];
  /** The reusable contents pages include (a Markdown folder's `.gitbook/includes`), as CreateRevision takes them. */
  reusableContents?: ReusableContentInput[];
  /** Pages, files and reusable contents imported. */
  imported: number;
  /** Entries looked at, the ones left out (styles, scripts, unreferenced files) included. */
  total: number;
}

export interface FileImportLimits extends ArchiveLimits {
  /** One stored file's bytes. */
  maxFileBytes: number;
}

const ORIGIN = 'https://archive.invalid/';
const PAGE_EXT = /\.(md|markdown|html?)$/i;
const HTML_EXT = /\.html?$/i;
// Notion names every page "<title> <32 hex id>".
const NOTION_ID = /\s[0-9a-f]{32}$/i;

const urlOf = (path: string) => new URL(path.split('/').map(encodeURIComponent).join('/'), ORIGIN);
const stem = (path: string) => path.replace(/\.[^./]+$/, '');
const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const dirname = (path: string) => path.slice(0, Math.max(path.lastIndexOf('/'), 0));

/** The first `# heading` of a markdown text as the title, and the text without it. */
function splitTitle(markdown: string): { title?: string; body: string } {
  const match = /^\s*# ([^\n]+)\n/.exec(markdown);
  return match ? { title: match[1]!.trim(), body: markdown.slice(match[0].length).trimStart() } : { body: markdown };
}

export async function importFile(source: FileSource, body: Buffer, name: string, limits: FileImportLimits): Promise<Imported> {
  switch (source) {
    case 'markdown': {
      const { title, body: markdown } = splitTitle(body.toString('utf8'));
      return one({ id: newId(), title: title ?? (stem(name) || 'Imported page'), markdown, pages: [] });
    }
    case 'html': {
      const url = new URL(name || 'page.html', ORIGIN);
      const page = parsePage(body.toString('utf8'), url);
      return one({ id: newId(), title: page.title, markdown: toMarkdown(page, url, new Map()), pages: [] });
    }
    case 'docx':
      return docx(body, name, limits);
    case 'zip':
      return folderArchive(await readArchive(body, limits), limits);
    case 'notion':
    case 'confluence':
      return exportArchive(source, await readArchive(body, limits), limits);
  }
}

/** A converted page as content takes it (titles cut to what a page may have). */
const contentOf = (p: ImportedPage): PlannedContent => ({
  id: p.id,
  type: 'document',
  fields: { title: p.title.slice(0, 100) },
  markdown: p.markdown,
  href: '',
  pages: p.pages.map(contentOf),
});

const one = (page: ImportedPage): Imported => ({ pages: [contentOf(page)], files: [], imported: 1, total: 1 });

async function docx(body: Buffer, name: string, limits: FileImportLimits): Promise<Imported> {
  // A .docx is a ZIP: its limits are checked here, and mammoth reads a copy made of the checked
  // entries, whose sizes are what they say.
  const entries = await readArchive(body, limits);
  const checked = Buffer.from(zipSync(Object.fromEntries(entries.map((e) => [e.path, new Uint8Array(e.data.buffer, e.data.byteOffset, e.data.byteLength)]))));
  const files: ImportedFile[] = [];
  const names = new Map<string, string>();
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: checked },
      {
        convertImage: mammoth.images.imgElement(async (image) => {
          const data = await image.readAsBuffer();
          const ext = mime.extension(image.contentType) || 'bin';
          const file = { name: `image-${files.length + 1}.${ext}`, contentType: image.contentType, data };
          checkSize(file, limits);
          files.push(file);
          names.set(new URL(file.name, ORIGIN).href, file.name);
          return { src: file.name };
        }),
      },
    );
    html = result.value;
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err;
    throw new InvalidArgumentError(`url: not a readable .docx document (${(err as Error).message})`);
  }
  const url = new URL('document.html', ORIGIN);
  const page = parsePage(`<body>${html}</body>`, url);
  const title = page.root.querySelector('h1') ? page.title : stem(name) || 'Imported document';
  return {
    pages: [contentOf({ id: newId(), title, markdown: toMarkdown(page, url, new Map(), (href) => names.get(href)), pages: [] })],
    files,
    imported: 1 + files.length,
    total: 1 + files.length,
  };
}

function checkSize(file: { name: string; data: Buffer }, limits: FileImportLimits): void {
  if (file.data.byteLength > limits.maxFileBytes)
    throw new InvalidArgumentError(`url: the file "${file.name}" is larger than ${limits.maxFileBytes} bytes (the limit for one file)`);
}

interface ArchivePage {
  entry: ArchiveEntry;
  id: string;
  url: URL;
  title: string;
  parentPath?: string;
  markdown: string;
}

/** A Notion or Confluence export: its pages (markdown or HTML) as a tree, and the files they use. */
function exportArchive(source: 'notion' | 'confluence', entries: ArchiveEntry[], limits: FileImportLimits): Imported {
  // Confluence exports HTML, its index.html being the table of contents, not a page; Notion markdown or HTML.
  const isPage = (e: ArchiveEntry) => (source === 'confluence' ? HTML_EXT.test(e.path) && basename(e.path) !== 'index.html' : PAGE_EXT.test(e.path));
  const pageEntries = entries.filter(isPage);
  if (!pageEntries.length) throw new InvalidArgumentError(`url: the archive holds no pages of a ${source} export (${source === 'confluence' ? '.html' : '.md or .html'} files)`);
  const pages: ArchivePage[] = pageEntries.map((entry) => ({ entry, id: newId(), url: urlOf(entry.path), title: '', markdown: '' }));
  const byHref = new Map(pages.map((p) => [pageKey(p.url), p]));
  const pageIds = new Map(pages.map((p) => [pageKey(p.url), p.id]));

  // Files get unique names (exports repeat `image.png` in every folder); only those a page uses are kept.
  const candidates = new Map<string, ArchiveEntry>();
  for (const e of entries) if (!isPage(e) && basename(e.path) !== 'index.html') candidates.set(urlOf(e.path).href, e);
  const fileNames = new Map<string, string>();
  const taken = new Set<string>();
  const files: ImportedFile[] = [];
  const fileName = (href: string): string | undefined => {
    const key = href.split('#')[0]!.split('?')[0]!;
    const known = fileNames.get(key);
    if (known) return known;
    const entry = candidates.get(key);
    if (!entry) return undefined;
    let name = basename(entry.path);
    for (let n = 2; taken.has(name); n++) name = `${stem(basename(entry.path))}-${n}${basename(entry.path).slice(stem(basename(entry.path)).length)}`;
    taken.add(name);
    fileNames.set(key, name);
    const file = { name, contentType: mime.lookup(name) || 'application/octet-stream', data: entry.data };
    checkSize(file, limits);
    files.push(file);
    return name;
  };

  for (const page of pages) {
    const text = page.entry.data.toString('utf8');
    if (HTML_EXT.test(page.entry.path)) {
      const parsed = parsePage(text, page.url);
      page.title = source === 'confluence' ? confluenceTitle(parsed.title) : parsed.title;
      if (source === 'confluence') {
        // The breadcrumbs name the ancestors; the last one that is a page of the export is the parent.
        const crumbs = parsed.root.querySelectorAll('#breadcrumbs a[href]').map((a) => byHref.get(pageKey(new URL(a.getAttribute('href')!, page.url))));
        page.parentPath = crumbs.filter((c) => c && c !== page).at(-1)?.entry.path;
        for (const el of parsed.root.querySelectorAll('#breadcrumb-section, #footer, .pageSection.group')) el.remove();
      }
      page.markdown = toMarkdown(parsed, page.url, pageIds, fileName);
    } else {
      const { title, body } = splitTitle(text);
      page.title = title ?? basename(stem(page.entry.path)).replace(NOTION_ID, '');
      page.markdown = relinkMarkdown(body, page.url, pageIds, fileName);
    }
    if (source === 'notion') page.title = page.title.replace(NOTION_ID, '');
    // Notion keeps a page's subpages in the folder named as the page's file.
    if (source === 'notion') page.parentPath = pages.find((p) => stem(p.entry.path) === dirname(page.entry.path))?.entry.path;
  }

  const nodes = new Map(pages.map((p) => [p.entry.path, { id: p.id, title: p.title || 'Untitled', markdown: p.markdown, pages: [] as ImportedPage[] }]));
  const roots: ImportedPage[] = [];
  for (const p of pages) (p.parentPath ? nodes.get(p.parentPath)!.pages : roots).push(nodes.get(p.entry.path)!);
  return { pages: roots.map(contentOf), files, imported: pages.length + files.length, total: entries.length };
}

/**
 * A Markdown folder (GitBook's layout with SUMMARY.md, or plain folders with README.md as each
 * folder's page) as Git import would read it from a repository holding these files: the same
 * tree, titles, slugs, front matter, links and assets. An archive whose files all sit in one
 * folder is read from inside it, as a ZIP of a folder usually is.
 */
function folderArchive(entries: ArchiveEntry[], limits: FileImportLimits): Imported {
  const top = entries[0]?.path.split('/')[0];
  const nested = top !== undefined && entries.every((e) => e.path.startsWith(`${top}/`));
  const files = entries.map((e) => ({ path: nested ? e.path.slice(top.length + 1) : e.path, data: e.data }));
  let plan;
  try {
    plan = planImport(snapshotOfFiles(files), { projectDirectory: '', known: { pages: new Map(), files: new Map() }, newId });
  } catch (err) {
    if (err instanceof RepositoryError) throw new InvalidArgumentError(`url: the archive is no Markdown folder: ${err.message}`);
    throw err;
  }
  const data = new Map(files.map((f) => [f.path, f.data]));
  const imported = plan.files.map((f) => ({ id: f.id, name: f.name, contentType: f.contentType, data: data.get(f.git.path)! }));
  for (const f of imported) checkSize(f, limits);
  const count = (list: PlannedContent[]): number => list.reduce((n, p) => n + 1 + count(p.pages), 0);
  const pages = plan.pages.map(plannedContent);
  // No Git file: an archive is no repository.
  const reusableContents = plan.reusableContents.map((r) => ({ id: r.id, title: r.title, markdown: r.markdown }));
  return { pages, files: imported, reusableContents, imported: count(pages) + imported.length + reusableContents.length, total: entries.length };
}

/** Confluence titles pages "<space> : <page>". */
function confluenceTitle(title: string): string {
  const at = title.indexOf(' : ');
  return at >= 0 ? title.slice(at + 3).trim() : title;
}

/** Markdown whose relative links to other pages of the archive become `/pages/<id>`, and to its files their names. */
function relinkMarkdown(markdown: string, base: URL, pageIds: ReadonlyMap<string, string>, fileName: (href: string) => string | undefined): string {
  return documentToMarkdown(fromMarkdown(markdown), {
    refToUrl: (ref) => {
      const raw = ref.kind === 'url' ? ref.url : ref.kind === 'file' ? ref.file : undefined;
      if (!raw || /^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(raw)) return undefined;
      let target: URL;
      try {
        target = new URL(raw, base);
      } catch {
        return undefined;
      }
      if (target.origin !== new URL(ORIGIN).origin) return undefined;
      const id = pageIds.get(pageKey(target));
      return id ? `/pages/${id}${target.hash}` : fileName(target.href);
    },
  });
}
