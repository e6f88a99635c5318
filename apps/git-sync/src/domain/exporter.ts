import { posix } from 'node:path';
import { joinPageFile, rewriteLinks } from './markdown.ts';
import { safeFileName } from '@quire/service-kit';
import { dirOf, joinPath, relativePath, splitTarget } from './paths.ts';
import { writeSummary, type SummaryLine } from './summary.ts';

/** The parts of a revision's page an export reads (the content service's Page has them). */
export interface SpacePage {
  id: string;
  type: string;
  title: string;
  slug: string;
  emoji: string;
  icon: string;
  description: string;
  hidden: boolean;
  href: string;
  markdown?: string;
  git?: { oid: string; path: string };
  pages: SpacePage[];
}

export interface SpaceFile {
  id: string;
  name: string;
  git?: { oid: string; path: string };
}

/** Where each page and file goes in the repository (paths from the repository root). */
export interface ExportLayout {
  pages: Map<string, string>;
  /** The folder of each page that has children, and of each group. */
  folders: Map<string, string>;
  files: Map<string, string>;
}

const unique = (path: string, taken: Set<string>) => {
  const ext = posix.extname(path);
  const stem = path.slice(0, path.length - ext.length);
  let p = path;
  for (let i = 2; taken.has(p.toLowerCase()); i++) p = `${stem}-${i}${ext}`;
  taken.add(p.toLowerCase());
  return p;
};

/**
 * GitBook's layout: a page is `<slug>.md`, or `<slug>/README.md` with its children beside it; a
 * group is a folder; the first page, when it has no children, is the root README.md. Files go
 * to `.gitbook/assets/<name>`.
 */
export function exportLayout(pages: SpacePage[], files: SpaceFile[], docsRoot: string): ExportLayout {
  const layout: ExportLayout = { pages: new Map(), folders: new Map(), files: new Map() };
  const taken = new Set<string>([joinPath(docsRoot, 'SUMMARY.md').toLowerCase()]);
  const place = (list: SpacePage[], dir: string, top: boolean) => {
    list.forEach((p, i) => {
      if (p.type === 'link') return;
      const hasChildren = p.pages.length > 0;
      if (p.type === 'group' || hasChildren) {
        const folder = unique(joinPath(dir, p.slug), taken);
        layout.folders.set(p.id, folder);
        if (p.type !== 'group') layout.pages.set(p.id, unique(joinPath(folder, 'README.md'), taken));
        place(p.pages, folder, false);
      } else {
        const readme = top && i === 0 && p.type === 'document';
        layout.pages.set(p.id, unique(joinPath(dir, readme ? 'README.md' : `${p.slug}.md`), taken));
      }
    });
  };
  place(pages, docsRoot, true);
  // Not the path a file was imported from: that was relative to another layout (docs root, repository).
  for (const f of files) layout.files.set(f.id, unique(joinPath(docsRoot, '.gitbook/assets', safeFileName(f.name)), taken));
  return layout;
}

const PAGE_LINK = /^\/pages\/([A-Za-z0-9_-]+)$/;
const FILE_LINK = /^\/files\/([A-Za-z0-9_-]+)$/;

/**
 * The text files of an export: one markdown file per document page (links to pages and files
 * made relative paths again), SUMMARY.md in the docs root and .gitbook.yaml in the project
 * directory, pointing at it. File bytes are the caller's.
 */
export function renderExport(pages: SpacePage[], layout: ExportLayout, docs: { root: string; projectDirectory: string }): Map<string, string> {
  const out = new Map<string, string>();
  const hrefs = new Map<string, string>();
  const walk = (list: SpacePage[], fn: (p: SpacePage) => void) =>
    list.forEach((p) => {
      fn(p);
      walk(p.pages, fn);
    });
  walk(pages, (p) => p.type === 'link' && hrefs.set(p.id, p.href));

  walk(pages, (p) => {
    const path = layout.pages.get(p.id);
    if (!path) return;
    const dir = dirOf(path);
    const body = rewriteLinks(p.markdown ?? '', (url) => {
      const { path: target, rest } = splitTarget(url);
      const page = PAGE_LINK.exec(target)?.[1];
      if (page) {
        const to = layout.pages.get(page);
        return to ? relativePath(dir, to) + rest : hrefs.get(page);
      }
      const file = FILE_LINK.exec(target)?.[1];
      const to = file ? layout.files.get(file) : undefined;
      return to ? relativePath(dir, to) : undefined;
    });
    out.set(path, joinPageFile(p.title, { description: p.description, icon: p.icon, emoji: p.emoji, hidden: p.hidden }, body));
  });

  const lines = (list: SpacePage[]): SummaryLine[] =>
    list.flatMap((p): SummaryLine[] => {
      if (p.type === 'link') return [{ title: p.title, href: p.href, external: true, children: lines(p.pages) }];
      const path = layout.pages.get(p.id);
      return path ? [{ title: p.title, href: relativePath(docs.root, path), children: lines(p.pages) }] : [];
    });
  const parts: { title?: string; lines: SummaryLine[] }[] = [];
  for (const p of pages) {
    if (p.type === 'group') parts.push({ title: p.title, lines: lines(p.pages) });
    else if (parts.length === 0 || parts.at(-1)!.title !== undefined) parts.push({ lines: lines([p]) });
    else parts.at(-1)!.lines.push(...lines([p]));
  }
  out.set(joinPath(docs.root, 'SUMMARY.md'), writeSummary(parts));
  const root = docs.root === docs.projectDirectory ? '.' : relativePath(docs.projectDirectory, docs.root);
  out.set(joinPath(docs.projectDirectory, '.gitbook.yaml'), `root: ./${root === '.' ? '' : `${root}/`}\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n`);
  return out;
}

/**
 * The ids an import keeps, by repository path: each page's and file's recorded Git path, then
 * the path an export of the current content would write (spaces made in the app, or pages moved
 * since the last import), groups by slug and links by target.
 */
export function knownIds(pages: SpacePage[], files: SpaceFile[], docsRoot: string): { pages: Map<string, string>; files: Map<string, string> } {
  const layout = exportLayout(pages, files, docsRoot);
  const known = { pages: new Map<string, string>(), files: new Map<string, string>() };
  const walk = (list: SpacePage[]) =>
    list.forEach((p) => {
      if (p.git?.path) known.pages.set(p.git.path, p.id);
      if (p.type === 'group') known.pages.set(`group:${p.slug}`, p.id);
      if (p.type === 'link') known.pages.set(`link:${p.href}`, p.id);
      walk(p.pages);
    });
  walk(pages);
  for (const [id, path] of layout.pages) if (!known.pages.has(path)) known.pages.set(path, id);
  // A folder page without a README file is matched by its folder.
  for (const [id, folder] of layout.folders) if (!known.pages.has(folder)) known.pages.set(folder, id);
  for (const f of files) if (f.git?.path) known.files.set(f.git.path, f.id);
  for (const [id, path] of layout.files) if (!known.files.has(path)) known.files.set(path, id);
  return known;
}
