import { posix } from 'node:path';
import YAML from 'yaml';
import { rewriteCover, rewriteIncludes, rewriteLinks, splitIncludeFile, splitPageFile, type FrontMatter, type PageFile } from './markdown.ts';
import { contentTypeOf, dirOf, isExternal, isInside, isMarkdown, joinPath, splitTarget } from './paths.ts';
import { pageOf, redirectTarget } from './redirects.ts';
import { fileSlug, titleSlug } from '@quire/document';
import { parseSummary, type SummaryEntry } from './summary.ts';

/** A problem with the repository's content, told to the user as the job's failure. */
export class RepositoryError extends Error {}

/** The commit's files: every blob's path and oid, and the text of the markdown and YAML ones. */
export interface RepoSnapshot {
  blobs: Map<string, string>;
  texts: Map<string, string>;
}

export interface PlannedPage {
  id: string;
  type: 'document' | 'group' | 'link';
  title: string;
  slug: string;
  front: FrontMatter;
  markdown: string;
  href: string;
  git?: { oid: string; path: string };
  pages: PlannedPage[];
}

/** A planned page as a revision's page content (the shape of content's CreateRevision pages). */
export interface PlannedContent {
  id: string;
  type: string;
  fields: { title: string; slug?: string; description?: string; emoji?: string; icon?: string; hidden?: boolean };
  markdown: string;
  href: string;
  git?: { oid: string; path: string };
  pages: PlannedContent[];
}

export const plannedContent = (p: PlannedPage): PlannedContent => ({
  id: p.id,
  type: p.type,
  fields: { title: p.title, slug: p.slug, description: p.front.description, emoji: p.front.emoji, icon: p.front.icon, hidden: p.front.hidden },
  markdown: p.markdown,
  href: p.href,
  git: p.git,
  pages: p.pages.map(plannedContent),
});

export interface PlannedFile {
  id: string;
  name: string;
  contentType: string;
  git: { oid: string; path: string };
}

/** A reusable content: a markdown file pages include (`{% include "…" %}`), GitBook's `.gitbook/includes/<name>.md`. */
export interface PlannedReusableContent {
  id: string;
  title: string;
  /** Its body, links and includes rewritten to ids as a page's are. */
  markdown: string;
  git: { oid: string; path: string };
}

/** An include left as written (no reusable content), and why. */
export interface IgnoredInclude {
  /** The file (page or reusable content) that includes it. */
  from: string;
  include: string;
  reason: string;
}

export interface ImportOptions {
  projectDirectory: string;
  /** Prefix of links to repository files that are neither pages nor assets. */
  repoTreeUrl?: string;
  /** Ids of the space's current pages and files by repository path (groups as `group:<title>`, links as `link:<href>`, entries without a link as `entry:<title>`): reimports keep them. */
  known: { pages: Map<string, string>; files: Map<string, string>; reusableContents?: Map<string, string> };
  newId: () => string;
}

export interface DocsConfig {
  root: string;
  readme: string;
  summary: string;
  /** `.gitbook.yaml`'s redirects: an old path of the published docs -> the file it now is (from the repository root). */
  redirects: Map<string, string>;
}

/** A redirect of `.gitbook.yaml` resolved: the old path, and the page (and anchor) it leads to. */
export interface PlannedRedirect {
  from: string;
  page: string;
  anchor: string;
}

export interface ImportPlan {
  pages: PlannedPage[];
  files: PlannedFile[];
  redirects: PlannedRedirect[];
  reusableContents: PlannedReusableContent[];
  ignoredIncludes: IgnoredInclude[];
}

/** `.gitbook.yaml` of the project directory: where the docs, the readme and the summary are. */
export function readConfig(snapshot: RepoSnapshot, projectDirectory: string): DocsConfig {
  const text = snapshot.texts.get(joinPath(projectDirectory, '.gitbook.yaml'));
  let data: { root?: unknown; structure?: { readme?: unknown; summary?: unknown }; redirects?: unknown } = {};
  if (text !== undefined) {
    try {
      data = (YAML.parse(text) as typeof data | null) ?? {};
    } catch (err) {
      throw new RepositoryError(`.gitbook.yaml is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const str = (v: unknown, name: string, fallback: string) => {
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string') throw new RepositoryError(`.gitbook.yaml: ${name} must be a string`);
    return v;
  };
  const root = joinPath(projectDirectory, str(data.root, 'root', ''));
  if (root.startsWith('..') || !isInside(root, projectDirectory)) throw new RepositoryError('.gitbook.yaml: root must stay inside the project directory');
  // GitBook reads the readme and the summary relative to the root, and lets them sit above it
  // (`readme: ../README.md`), as long as they stay in the repository.
  const file = (p: string, name: string) => {
    const full = joinPath(root, p);
    if (full === '' || full === '..' || full.startsWith('../') || full === root) throw new RepositoryError(`.gitbook.yaml: structure.${name} must be a file of the repository`);
    return full;
  };
  const redirects = new Map<string, string>();
  if (data.redirects !== undefined && data.redirects !== null) {
    if (typeof data.redirects !== 'object' || Array.isArray(data.redirects)) throw new RepositoryError('.gitbook.yaml: redirects must map old paths to files');
    for (const [from, to] of Object.entries(data.redirects as Record<string, unknown>)) {
      if (typeof to !== 'string') throw new RepositoryError(`.gitbook.yaml: redirects.${from} must be a file path`);
      // Old URLs, relative to the space's: `/old` and `old` are one; one above the space leads nowhere.
      const path = joinPath(from).replace(/^\/+/, '');
      if (path !== '' && path !== '..' && !path.startsWith('../')) redirects.set(path, joinPath(root, to));
    }
  }
  return {
    root,
    redirects,
    readme: file(str(data.structure?.readme, 'readme', 'README.md'), 'readme'),
    summary: file(str(data.structure?.summary, 'summary', 'SUMMARY.md'), 'summary'),
  };
}

/** An entry of the tree before ids: its source file, if any. */
interface Node {
  type: PlannedPage['type'];
  title?: string;
  source?: string;
  href: string;
  /** The folder a page stands for, when it has no file: its slug. */
  folder?: string;
  /** A group's slug as its SUMMARY.md heading's anchor gives it. */
  anchor?: string;
  /** A link page to a page of the space: the file of that page and the anchor. */
  linkTo?: { source: string; rest: string };
  children: Node[];
}

type IdNode = Node & { id: string; kids: IdNode[] };

/**
 * The revision a repository's commit makes: the page tree from SUMMARY.md (from the folders
 * without one), markdown with relative links rewritten to page and file ids, and the files the
 * pages use or that sit in `.gitbook/assets`.
 */
export function planImport(snapshot: RepoSnapshot, options: ImportOptions): ImportPlan {
  const config = readConfig(snapshot, options.projectDirectory);
  const summary = snapshot.texts.get(config.summary);
  const nodes = summary !== undefined ? summaryNodes(summary, snapshot, config) : folderNodes(snapshot, config);
  if (nodes.length === 0) throw new RepositoryError(`no pages found in ${config.root || 'the repository root'}`);

  const used = new Set<string>();
  const idFor = (key: string | undefined, known: Map<string, string>) => {
    const id = key !== undefined ? known.get(key) : undefined;
    const chosen = id && !used.has(id) ? id : options.newId();
    used.add(chosen);
    return chosen;
  };

  // Ids first: links between pages need every page's id before any markdown is rewritten.
  const pageIds = new Map<string, string>();
  const withIds = (list: Node[]): IdNode[] =>
    list.map((n) => {
      // A link to a page listed earlier: its id is known by now.
      const href = n.linkTo ? `/pages/${pageIds.get(n.linkTo.source)}${n.linkTo.rest}` : n.href;
      // A SUMMARY entry without a link (a title over its children) by its title, as a group.
      const key = n.source ?? (n.type === 'group' ? `group:${n.title ?? ''}` : n.type === 'link' ? `link:${href}` : (n.folder ?? `entry:${n.title ?? ''}`));
      const id = idFor(key, options.known.pages);
      if (n.source) pageIds.set(n.source, id);
      return { ...n, href, id, kids: withIds(n.children) };
    });
  const tree = withIds(nodes);

  const files = new Map<string, PlannedFile>();
  const fileFor = (path: string) => {
    let f = files.get(path);
    if (!f) {
      f = { id: idFor(path, options.known.files), name: posix.basename(path), contentType: contentTypeOf(path), git: { oid: snapshot.blobs.get(path)!, path } };
      files.set(path, f);
    }
    return f.id;
  };
  const assets = joinPath(config.root, '.gitbook/assets');
  for (const path of [...snapshot.blobs.keys()].sort()) if (isInside(path, assets) && path !== assets) fileFor(path);

  const rewriteFrom = (source: string) => (url: string) => {
    if (isExternal(url) || url.startsWith('#') || url.startsWith('/')) return undefined;
    const { path, rest } = splitTarget(url);
    if (!path) return undefined;
    const target = joinPath(dirOf(source), path);
    if (target.startsWith('..')) return undefined;
    const page = pageOf(pageIds, target);
    if (page) return `/pages/${page}${rest}`;
    // Assets of the docs become files (markdown too, in the assets folder); other repository files
    // stay links to the repository.
    if (snapshot.blobs.has(target) && isInside(target, config.root) && (!isMarkdown(target) || isInside(target, assets))) return `/files/${fileFor(target)}`;
    return options.repoTreeUrl ? `${options.repoTreeUrl.replace(/(?<!\/)\/+$/, '')}/${target}${rest}` : undefined;
  };

  // A cover names a file of the space, relative to the page (or, written so, to the docs root).
  const coverFrom = (source: string) => (url: string) => [rewriteFrom(source)(url), rewriteFrom(joinPath(config.root, 'README.md'))(url)].find((to) => to?.startsWith('/files/'));

  // Included files, each read once (by path) however many pages include it, nested ones too; an
  // include of itself or a cycle is kept as data (the reader stops there). Only markdown files
  // under the docs root are read: a target above it, absolute or a URL is left as written.
  const reusable = new Map<string, PlannedReusableContent>();
  const ignoredIncludes: IgnoredInclude[] = [];
  const includeFrom = (from: string) => (include: string) => {
    const ignore = (reason: string) => (ignoredIncludes.push({ from, include, reason }), undefined);
    if (isExternal(include) || include.startsWith('/')) return ignore('not a relative path');
    const path = joinPath(dirOf(from), splitTarget(include).path);
    if (path === '' || path === '..' || path.startsWith('../') || !isInside(path, config.root)) return ignore(`outside the docs root (${config.root || 'the repository root'})`);
    if (!isMarkdown(path) || !snapshot.texts.has(path)) return ignore('no such markdown file');
    let content = reusable.get(path);
    if (!content) {
      const file = splitIncludeFile(snapshot.texts.get(path)!);
      content = {
        id: idFor(path, options.known.reusableContents ?? new Map()),
        title: file.title ?? (titleFromPath(path) || 'Untitled'),
        markdown: '',
        git: { oid: snapshot.blobs.get(path)!, path },
      };
      reusable.set(path, content);
      content.markdown = rewriteIncludes(rewriteLinks(file.body, rewriteFrom(path)), includeFrom(path));
    }
    return content.id;
  };

  const toPages = (list: IdNode[]): PlannedPage[] => {
    const slugs = new Set<string>();
    return list.map((n) => {
      const text = n.source !== undefined ? snapshot.texts.get(n.source) : undefined;
      const file: Partial<PageFile> & Pick<PageFile, 'front' | 'body'> = text !== undefined ? splitPageFile(text) : { front: {}, body: '' };
      const heading = file.heading;
      const title = n.title || heading || titleFromPath(n.source ?? n.folder ?? '') || 'Untitled';
      const slug = uniqueSlug(slugOf(n, config, title), slugs);
      // A heading other than the summary's title is the page's own first block: it stays.
      const body = file.headed !== undefined && heading !== undefined && heading !== title ? file.headed : file.body;
      const matter = n.source && file.matter ? rewriteCover(file.matter, coverFrom(n.source)) : (file.matter ?? '');
      return {
        id: n.id,
        type: n.type,
        title,
        slug,
        front: file.front,
        markdown: n.source && text !== undefined ? matter + rewriteIncludes(rewriteLinks(body, rewriteFrom(n.source)), includeFrom(n.source)) : '',
        href: n.href,
        ...(n.source && snapshot.blobs.has(n.source) ? { git: { oid: snapshot.blobs.get(n.source)!, path: n.source } } : {}),
        pages: toPages(n.kids),
      };
    });
  };
  const pages = toPages(tree);
  const redirects = [...config.redirects].flatMap(([from, to]): PlannedRedirect[] => {
    const found = redirectTarget(to, config, pageIds);
    return found ? [{ from, ...found }] : [];
  });
  return { pages, files: [...files.values()], redirects, reusableContents: [...reusable.values()], ignoredIncludes };
}

function summaryNodes(summary: string, snapshot: RepoSnapshot, config: DocsConfig): Node[] {
  const base = dirOf(config.summary);
  const referenced = new Set<string>();
  const fromEntry = (e: SummaryEntry): Node => {
    const children = e.children.map(fromEntry);
    if (e.href && isExternal(e.href)) return { type: 'link', title: e.title, href: e.href, children };
    let source: string | undefined;
    if (e.href) {
      const { path, rest } = splitTarget(e.href);
      const target = joinPath(base, path);
      source = snapshot.texts.has(target) ? target : snapshot.texts.has(joinPath(target, 'README.md')) ? joinPath(target, 'README.md') : target;
      // A file listed again (often with an anchor) is a link to the page the first listing made.
      if (referenced.has(source) && children.length === 0) return { type: 'link', title: e.title, href: '', linkTo: { source, rest }, children };
      referenced.add(source);
    }
    return { type: 'document', title: e.title, source, href: '', children };
  };
  const nodes: Node[] = [];
  for (const part of parseSummary(summary)) {
    const entries = part.entries.map(fromEntry);
    if (part.title === undefined) nodes.push(...entries);
    else nodes.push({ type: 'group', title: part.title, ...(part.anchor ? { anchor: part.anchor } : {}), href: '', children: entries });
  }
  // The readme is the space's first page even when the summary does not list it.
  if (snapshot.texts.has(config.readme) && !referenced.has(config.readme)) nodes.unshift({ type: 'document', source: config.readme, href: '', children: [] });
  return nodes;
}

function folderNodes(snapshot: RepoSnapshot, config: DocsConfig): Node[] {
  const hidden = joinPath(config.root, '.gitbook');
  const markdown = [...snapshot.texts.keys()].filter((p) => isMarkdown(p) && isInside(p, config.root) && !isInside(p, hidden) && p !== config.summary).sort();
  const readmeOf = (dir: string) => (dir === config.root ? config.readme : joinPath(dir, 'README.md'));
  const level = (dir: string): Node[] => {
    const prefix = dir ? `${dir}/` : '';
    const here = markdown.filter((p) => dirOf(p) === dir && p !== readmeOf(dir));
    const subdirs = [...new Set(markdown.filter((p) => p.startsWith(prefix) && dirOf(p) !== dir).map((p) => prefix + p.slice(prefix.length).split('/')[0]))].sort();
    return [
      ...here.map((source): Node => ({ type: 'document', source, href: '', children: [] })),
      ...subdirs.map((sub): Node => {
        const readme = joinPath(sub, 'README.md');
        return { type: 'document', href: '', children: level(sub), ...(snapshot.texts.has(readme) ? { source: readme } : { folder: sub }) };
      }),
    ];
  };
  const top = level(config.root);
  return snapshot.texts.has(config.readme) ? [{ type: 'document', source: config.readme, href: '', children: [] }, ...top] : top;
}

function slugOf(n: Node, config: DocsConfig, title: string): string {
  // GitBook's path of a group is the id of its heading's anchor, when it has one.
  if (n.anchor !== undefined) return fileSlug(n.anchor, title);
  if (n.type !== 'document' || (n.source === undefined && n.folder === undefined) || n.source === config.readme) return titleSlug(title);
  const path = n.source ?? n.folder!;
  const base = /^readme\.md$/i.test(posix.basename(path)) ? posix.basename(dirOf(path)) : posix.basename(path).replace(/\.md$/i, '');
  return base ? fileSlug(base, title) : titleSlug(title);
}

function titleFromPath(path: string): string {
  const base = /^readme\.md$/i.test(posix.basename(path)) ? posix.basename(dirOf(path)) : posix.basename(path).replace(/\.md$/i, '');
  const words = base.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : '';
}

function uniqueSlug(slug: string, taken: Set<string>): string {
  let s = slug;
  for (let i = 2; taken.has(s); i++) s = `${slug}-${i}`;
  taken.add(s);
  return s;
}
