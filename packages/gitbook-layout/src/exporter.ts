import { posix } from 'node:path';
import { parseMarkdown, safeFileName, titleSlug, toMarkdown } from '@quire/document';
import { planImport, readConfig, RepositoryError, type ImportPlan, type PlannedPage, type RepoSnapshot } from './importer.ts';
import { joinIncludeFile, joinPageFile, rewriteCover, splitPageFile, takeMatter } from './markdown.ts';
import { dirOf, FILE_LINK, isInside, isMarkdown, isWritablePath, joinPath, PAGE_LINK, relativePath, splitTarget } from './paths.ts';
import { pageFile, redirectsYaml } from './redirects.ts';
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

/** A reusable content of the revision (the content service's ReusableContent has these). */
export interface SpaceReusableContent {
  id: string;
  title: string;
  markdown: string;
  git?: { oid: string; path: string };
}

/** Where a new reusable content goes, from the docs root: GitBook's `.gitbook/includes/<slug>.md`. */
const includePath = (root: string, title: string) => joinPath(root, '.gitbook/includes', `${titleSlug(title) || 'include'}.md`);

/** Where each page and file goes in the repository (paths from the repository root). */
export interface ExportLayout {
  pages: Map<string, string>;
  /** The folder of each page that has children, and of each group. */
  folders: Map<string, string>;
  files: Map<string, string>;
  /** Each reusable content's file. */
  includes: Map<string, string>;
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
  const layout: ExportLayout = { pages: new Map(), folders: new Map(), files: new Map(), includes: new Map() };
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

/** What an export changes in the repository: text files to write, where each file goes, what goes away. */
export interface ExportPlan {
  /** Page files, SUMMARY.md and `.gitbook.yaml` that differ from the repository's. */
  texts: Map<string, string>;
  /** Every file of the space by id: its path (the caller writes its bytes if they differ). */
  files: Map<string, string>;
  /** Files of the repository the space had (pages, assets) and no longer has. */
  remove: string[];
  /** The readme `.gitbook.yaml` names: the one file the export may write outside the project directory. */
  readme: string;
  /** How many page files the space has (written or left as they are): the job's progress counts them. */
  pageCount: number;
}

export interface ExportOptions {
  projectDirectory: string;
  /** The repository's commit the export goes on, when there is one. */
  existing?: RepoSnapshot;
  /** The prefix imports gave links to other repository files (written back as relative paths). */
  repoTreeUrl?: string;
  /** The space's redirects (old path -> page id and anchor): written in a new `.gitbook.yaml`. */
  redirects?: readonly { path: string; pageId: string; anchor: string }[];
  /** The space's reusable contents: each written to its file, pages' includes as paths to it. */
  reusableContents?: readonly SpaceReusableContent[];
}

const flatten = <T extends { pages: T[] }>(list: T[]): T[] => list.flatMap((p) => [p, ...flatten(p.pages)]);

/**
 * The export of a space onto a repository, writing only what the space owns and what changed:
 * the repository's commit is imported again (with the space's ids) and every page, file and the
 * summary that would import as they are now are left byte for byte. A page keeps the file it was
 * imported from, a file its path; new ones get GitBook's layout (see exportLayout). Files the
 * space never read (unlisted markdown, other folders, `.gitbook.yaml`) are never touched.
 */
export function planExport(pages: SpacePage[], files: SpaceFile[], options: ExportOptions): ExportPlan {
  const { projectDirectory, existing } = options;
  const config = readConfig(existing ?? { blobs: new Map(), texts: new Map() }, projectDirectory);
  const root = config.root;
  const reusableContents = options.reusableContents ?? [];
  let previous: ImportPlan | undefined;
  if (existing) {
    let n = 0;
    try {
      previous = planImport(existing, { projectDirectory, repoTreeUrl: options.repoTreeUrl, known: knownIds(pages, files, root, reusableContents), newId: () => `\0new${n++}` });
    } catch (err) {
      if (!(err instanceof RepositoryError)) throw err;
    }
  }
  const before = new Map(flatten(previous?.pages ?? []).map((p) => [p.id, p]));
  const all = flatten(pages);
  // The space's recorded paths are this repository's when the repository has any of them (a
  // space imported elsewhere, exported to a new repository, takes GitBook's layout there).
  const samePaths = !!existing && [...all, ...files, ...reusableContents].some((p) => p.git?.path && existing.blobs.has(p.git.path));
  const writable = (path: string) => (isWritablePath(path, projectDirectory) && isInside(path, root)) || (path === config.readme && isWritablePath(path, ''));
  const own = (path: string | undefined, markdown: boolean) => (samePaths && path !== undefined && writable(path) && isMarkdown(path) === markdown ? path : undefined);

  const taken = new Set<string>([config.summary.toLowerCase()]);
  const layout: ExportLayout = { pages: new Map(), folders: new Map(), files: new Map(), includes: new Map() };
  // Pages whose file the export may not write (listed from above the docs root, a notebook):
  // their files stay where they are, as they are, listed by their paths.
  const foreign = new Set<string>();
  for (const p of all) {
    const recorded = p.type === 'document' ? p.git?.path : undefined;
    const kept = own(recorded, true);
    const path = kept ?? (samePaths && recorded && existing?.blobs.has(recorded) ? recorded : undefined);
    if (path && !taken.has(path.toLowerCase())) {
      taken.add(path.toLowerCase());
      layout.pages.set(p.id, path);
      if (!kept) foreign.add(p.id);
    }
  }
  // A folder page the import made without a file (a folder with no README) stays without one
  // while it has no content.
  const fileless = (p: SpacePage) => {
    const b = before.get(p.id);
    return !!b && !b.git && !p.markdown?.trim() && !p.description && b.title === p.title;
  };
  const place = (list: SpacePage[], dir: string, top: boolean) => {
    list.forEach((p, i) => {
      if (p.type === 'link') return;
      const name = nameOf(p);
      const kept = layout.pages.get(p.id);
      const hasChildren = p.pages.length > 0;
      let folder: string;
      if (kept) folder = /^readme\.md$/i.test(posix.basename(kept)) ? dirOf(kept) : kept.replace(/\.md$/i, '');
      else if (p.type === 'group' || hasChildren || fileless(p)) {
        folder = unique(joinPath(dir, name), taken);
        if (p.type !== 'group' && !fileless(p)) layout.pages.set(p.id, unique(joinPath(folder, 'README.md'), taken));
      } else {
        const readme = top && i === 0 && p.type === 'document' && !samePaths;
        layout.pages.set(p.id, unique(joinPath(dir, readme ? 'README.md' : `${name}.md`), taken));
        folder = joinPath(dir, name);
      }
      layout.folders.set(p.id, folder);
      place(p.pages, folder, false);
    });
  };
  place(pages, root, true);
  for (const f of files) {
    const kept = own(f.git?.path, false);
    layout.files.set(f.id, kept && !taken.has(kept.toLowerCase()) ? (taken.add(kept.toLowerCase()), kept) : unique(joinPath(root, '.gitbook/assets', safeFileName(f.name)), taken));
  }
  for (const r of reusableContents) {
    const kept = own(r.git?.path, true);
    layout.includes.set(r.id, kept && !taken.has(kept.toLowerCase()) ? (taken.add(kept.toLowerCase()), kept) : unique(includePath(root, r.title), taken));
  }

  const texts = new Map<string, string>();
  const hrefs = new Map(all.filter((p) => p.type === 'link').map((p) => [p.id, p.href]));
  const ctx: RenderContext = { layout, hrefs, repoTreeUrl: options.repoTreeUrl };
  for (const p of all) {
    const path = layout.pages.get(p.id);
    if (!path || foreign.has(p.id)) continue;
    const b = before.get(p.id);
    if (b?.git?.path === path && samePage(b, p)) continue;
    const old = existing?.texts.get(path);
    const text = renderPage(p, path, { ...ctx, old });
    // Written before in the writer's spelling (an export to a new repository): the same file again.
    if (text !== old) texts.set(path, text);
  }
  // A reusable content that imports as it is now stays byte for byte; the others are written.
  const includedBefore = new Map((previous?.reusableContents ?? []).map((r) => [r.id, r]));
  for (const r of reusableContents) {
    const path = layout.includes.get(r.id)!;
    const b = includedBefore.get(r.id);
    if (b?.git.path === path && b.title === r.title && b.markdown === r.markdown) continue;
    const text = joinIncludeFile(r.title, renderBody(r.markdown, dirOf(path), ctx));
    if (text !== existing?.texts.get(path)) texts.set(path, text);
  }

  const shape = (list: { id: string; type: string; title: string; href: string; pages: unknown[] }[], pathOf: (id: string) => string | undefined): unknown =>
    list.map((p) => [p.id, p.type, p.title, p.type === 'link' ? p.href : pathOf(p.id), shape(p.pages as typeof list, pathOf)]);
  // Unchanged structure: the summary (or the folders, when the repository has none) as it is.
  const summaryKept =
    previous !== undefined && JSON.stringify(shape(pages, (id) => layout.pages.get(id))) === JSON.stringify(shape(previous.pages, (id) => before.get(id)?.git?.path));
  if (!summaryKept) {
    texts.set(config.summary, summaryOf(pages, layout, dirOf(config.summary)));
    const yaml = joinPath(projectDirectory, '.gitbook.yaml');
    if (!existing?.texts.has(yaml)) {
      const rel = root === projectDirectory ? '' : `${relativePath(projectDirectory, root)}/`;
      const written = redirectsYaml(options.redirects ?? [], pageFile(pages, layout.pages), root);
      texts.set(
        yaml,
        `root: ./${rel}\n\nstructure:\n  readme: ${relativePath(root, layout.pages.get(pages.find((p) => p.type === 'document')?.id ?? '') ?? config.readme)}\n  summary: ${relativePath(root, config.summary)}\n${written}`,
      );
    }
  }

  const written = new Set([...layout.pages.values(), ...layout.files.values(), ...layout.includes.values()]);
  const owned = [
    ...flatten(previous?.pages ?? []).flatMap((p) => (p.git ? [p.git.path] : [])),
    ...(previous?.files ?? []).map((f) => f.git.path),
    ...(previous?.reusableContents ?? []).map((r) => r.git.path),
  ];
  const remove = [...new Set(owned)].filter((path) => !written.has(path) && !texts.has(path));
  return { texts, files: layout.files, remove, readme: config.readme, pageCount: layout.pages.size };
}

/** A new page's file name: its slug (GitBook's slug of its title unless someone chose one). */
const nameOf = (p: SpacePage) => p.slug;

const field = (v: string | undefined) => v ?? '';

/** Whether the page, as the repository's file imports, is the page as the space has it now. */
function samePage(b: PlannedPage, p: SpacePage): boolean {
  return (
    b.title === p.title &&
    b.markdown === (p.markdown ?? '') &&
    field(b.front.description) === p.description &&
    field(b.front.emoji) === p.emoji &&
    field(b.front.icon) === p.icon &&
    (b.front.hidden ?? false) === p.hidden
  );
}

interface RenderContext {
  layout: ExportLayout;
  hrefs: Map<string, string>;
  /** The file's text in the repository, when there is one: its shape (a title heading or not) is kept. */
  old?: string;
  repoTreeUrl?: string;
}

/**
 * A page's file: its body (see renderBody), the front matter the import kept with the page's
 * fields in it, the title as `# heading` unless the page already starts with its own heading or
 * its file had none.
 */
function renderPage(p: SpacePage, path: string, ctx: RenderContext): string {
  const taken = takeMatter(p.markdown ?? '');
  const { body } = taken;
  const matter = taken.matter && rewriteCover(taken.matter, targetRewriter(dirOf(path), ctx));
  const text = renderBody(body, dirOf(path), ctx);
  const old = ctx.old !== undefined ? splitPageFile(ctx.old) : undefined;
  const ownHeading = splitPageFile(body).heading !== undefined;
  const heading = !ownHeading && (old === undefined || old.heading !== undefined);
  return joinPageFile(p.title, { description: p.description, icon: p.icon, emoji: p.emoji, hidden: p.hidden }, text, { heading, ...(matter ? { matter } : {}) });
}

/**
 * Markdown of a file in `dir`, written with the document model's markdown writer: links to pages
 * and files as paths relative to the file, links the import made repository URLs as paths again,
 * includes of reusable contents as paths to their files.
 */
function renderBody(markdown: string, dir: string, ctx: RenderContext): string {
  const rewrite = targetRewriter(dir, ctx);
  const included = (id: string) => {
    const to = ctx.layout.includes.get(id);
    return to && relativePath(dir, to);
  };
  const { document } = parseMarkdown(markdown);
  return toMarkdown(document, {
    refToUrl: (ref) =>
      ref.kind === 'url' ? rewrite(ref.url) : ref.kind === 'file' ? rewrite(ref.file) : ref.kind === 'reusable-content' ? included(ref.reusableContent) : undefined,
  });
}

/** Links to pages and files as paths relative to `dir`, and the links the import made repository URLs as paths again. */
function targetRewriter(dir: string, ctx: RenderContext): (url: string) => string | undefined {
  const tree = ctx.repoTreeUrl ? `${ctx.repoTreeUrl.replace(/(?<!\/)\/+$/, '')}/` : undefined;
  return (url) => {
    const { path: target, rest } = splitTarget(url);
    const page = PAGE_LINK.exec(target)?.[1];
    if (page) {
      const to = ctx.layout.pages.get(page);
      return to ? relativePath(dir, to) + rest : ctx.hrefs.get(page);
    }
    const file = FILE_LINK.exec(target)?.[1];
    if (file) {
      const to = ctx.layout.files.get(file);
      return to ? relativePath(dir, to) : undefined;
    }
    if (tree && url.startsWith(tree)) return relativePath(dir, url.slice(tree.length));
    return undefined;
  };
}

function summaryOf(pages: SpacePage[], layout: ExportLayout, base: string): string {
  const lines = (list: SpacePage[]): SummaryLine[] =>
    list.flatMap((p): SummaryLine[] => {
      if (p.type === 'link') {
        // A link to a page of the space is the page's file again, with its anchor.
        const { path: target, rest } = splitTarget(p.href);
        const to = layout.pages.get(PAGE_LINK.exec(target)?.[1] ?? '');
        return [
          to
            ? { title: p.title, href: relativePath(base, to), anchor: rest, children: lines(p.pages) }
            : { title: p.title, href: p.href, external: true, children: lines(p.pages) },
        ];
      }
      const path = layout.pages.get(p.id);
      return path ? [{ title: p.title, href: relativePath(base, path), children: lines(p.pages) }] : lines(p.pages);
    });
  const parts: { title?: string; anchor?: string; lines: SummaryLine[] }[] = [];
  for (const p of pages) {
    // A group's slug that its title would not give is written as its heading's anchor, as GitBook does.
    if (p.type === 'group') parts.push({ title: p.title, ...(p.slug !== titleSlug(p.title) ? { anchor: p.slug } : {}), lines: lines(p.pages) });
    else if (parts.length === 0 || parts.at(-1)!.title !== undefined) parts.push({ lines: lines([p]) });
    else parts.at(-1)!.lines.push(...lines([p]));
  }
  return writeSummary(parts);
}

/**
 * The ids an import keeps, by repository path: each page's and file's recorded Git path, then
 * the path an export of the current content would write (spaces made in the app, or pages moved
 * since the last import), groups by title and links by target.
 */
export function knownIds(
  pages: SpacePage[],
  files: SpaceFile[],
  docsRoot: string,
  reusableContents: readonly SpaceReusableContent[] = [],
): { pages: Map<string, string>; files: Map<string, string>; reusableContents: Map<string, string> } {
  const layout = exportLayout(pages, files, docsRoot);
  const known = { pages: new Map<string, string>(), files: new Map<string, string>(), reusableContents: new Map<string, string>() };
  const walk = (list: SpacePage[]) =>
    list.forEach((p) => {
      if (p.git?.path) known.pages.set(p.git.path, p.id);
      if (p.type === 'group') known.pages.set(`group:${p.title}`, p.id);
      if (p.type === 'document' && !p.git?.path) known.pages.set(`entry:${p.title}`, p.id);
      if (p.type === 'link') known.pages.set(`link:${p.href}`, p.id);
      walk(p.pages);
    });
  walk(pages);
  for (const [id, path] of layout.pages) if (!known.pages.has(path)) known.pages.set(path, id);
  // A folder page without a README file is matched by its folder.
  for (const [id, folder] of layout.folders) if (!known.pages.has(folder)) known.pages.set(folder, id);
  for (const f of files) if (f.git?.path) known.files.set(f.git.path, f.id);
  for (const [id, path] of layout.files) if (!known.files.has(path)) known.files.set(path, id);
  for (const r of reusableContents) if (r.git?.path) known.reusableContents.set(r.git.path, r.id);
  for (const r of reusableContents) if (!known.reusableContents.has(includePath(docsRoot, r.title))) known.reusableContents.set(includePath(docsRoot, r.title), r.id);
  return known;
}
