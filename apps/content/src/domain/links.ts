// The status of the links a revision's documents hold (ok, broken or in-app) and how they are
// grouped into one entry per target. Links are stored per document (see markdown.ts `links`);
// whether they resolve depends on the revision they are read in.
import { anchorSlug } from '@quire/document';
import { PATH_TARGET, type Link } from './markdown.ts';

export type LinkStatus = 'ok' | 'broken' | 'in-app';
export const LINK_STATUSES: readonly LinkStatus[] = ['ok', 'broken', 'in-app'];

/** A document page of the revision as link checks see it. */
export interface LinkPage {
  id: string;
  /** Slugs from the root joined by "/". */
  path: string;
  /** Whether it has child pages (then its markdown file is `<path>/README.md`, as Git sync writes it). */
  hasChildren: boolean;
  /** Its document's heading anchors. */
  anchors: ReadonlySet<string>;
}

export interface RevisionView {
  pages: ReadonlyMap<string, LinkPage>;
  byPath: ReadonlyMap<string, LinkPage>;
  files: ReadonlySet<string>;
  /** The origin of the app (`https://app.example.com`); links to it are `in-app`. */
  appOrigin?: string;
}

/** A heading as the search index keeps it: its anchor and its text. */
export interface HeadingRow {
  anchor: string;
  title: string;
}

/**
 * The anchors a link may name in a document: its headings' stored anchors, and each heading's
 * anchor as GitBook spells it now (`准备` → `zhun-bei`), for documents indexed before anchors
 * were spelled so (a heading's explicit id stays among the stored ones).
 */
export function pageAnchors(headings: readonly HeadingRow[]): Set<string> {
  const out = new Set<string>();
  const used = new Map<string, number>();
  for (const h of headings) {
    out.add(h.anchor);
    const base = anchorSlug(h.title) || 'section';
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    out.add(seen ? `${base}-${seen}` : base);
  }
  return out;
}

export function revisionView(pages: LinkPage[], files: Iterable<string>, appOrigin?: string): RevisionView {
  return { pages: new Map(pages.map((p) => [p.id, p])), byPath: new Map(pages.map((p) => [p.path, p])), files: new Set(files), appOrigin };
}

/**
 * The page a relative markdown path (`../guide/setup.md`, `sub/README.md`) points to, written in
 * `from`: resolved against the directory of `from`'s markdown file, as Git sync lays pages out.
 */
export function resolvePagePath(from: Pick<LinkPage, 'path' | 'hasChildren'>, relative: string): string | undefined {
  const dir = from.hasChildren ? from.path.split('/') : from.path.split('/').slice(0, -1);
  const parts = dir.filter((p) => p !== '');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  const last = parts.pop();
  if (last === undefined) return undefined;
  const name = last.replace(/\.md$/i, '');
  if (name.toLowerCase() !== 'readme') parts.push(name);
  return parts.join('/');
}

/** Where a link points, resolved in the revision. */
export interface ResolvedTarget {
  kind: Link['kind'];
  /** The page it points to (the linking page itself for `anchor`); empty when none resolves. */
  pageId: string;
  fileId: string;
  /** For `url`, and for a relative path that resolves to no page: as written. */
  url: string;
  anchor: string;
}

/** The link's target in the revision and its status, for a link found in page `from`. */
export function resolveLink(link: Omit<Link, 'relation'>, from: LinkPage, rev: RevisionView): { target: ResolvedTarget; status: LinkStatus } {
  const target: ResolvedTarget = { kind: link.kind, pageId: '', fileId: '', url: '', anchor: link.anchor };
  switch (link.kind) {
    case 'url':
      target.url = link.target;
      return { target, status: isInApp(link.target, rev.appOrigin) ? 'in-app' : 'ok' };
    case 'file':
      target.fileId = link.target;
      return { target, status: rev.files.has(link.target) ? 'ok' : 'broken' };
    case 'anchor':
      target.pageId = from.id;
      return { target, status: from.anchors.has(link.anchor) ? 'ok' : 'broken' };
    case 'page': {
      let page: LinkPage | undefined;
      if (link.target.startsWith(PATH_TARGET)) {
        const relative = link.target.slice(PATH_TARGET.length);
        const path = resolvePagePath(from, relative);
        page = path === undefined ? undefined : rev.byPath.get(path);
        if (!page) target.url = relative;
      } else {
        target.pageId = link.target;
        page = rev.pages.get(link.target);
      }
      if (page) target.pageId = page.id;
      const ok = page !== undefined && (link.anchor === '' || page.anchors.has(link.anchor));
      return { target, status: ok ? 'ok' : 'broken' };
    }
  }
}

/**
 * Links into the app itself rather than to the outside: absolute URLs on the app's origin, and
 * root-relative paths (`/o/.../s/...`), which only mean something where the content is shown.
 */
export function isInApp(url: string, appOrigin: string | undefined): boolean {
  if (url.startsWith('/') && !url.startsWith('//')) return true;
  if (!appOrigin) return false;
  try {
    return new URL(url).origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

/** One target and the pages linking to it, in the order they were first found. */
export interface LinkUsage {
  key: string;
  status: LinkStatus;
  relation: Link['relation'];
  target: ResolvedTarget;
  pageIds: string[];
}

/** The links found in each page (in reading order), one usage per relation and target. */
export function linkUsages(found: { page: LinkPage; links: Link[] }[], rev: RevisionView): LinkUsage[] {
  const usages = new Map<string, LinkUsage>();
  for (const { page, links } of found) {
    for (const link of links) {
      const { target, status } = resolveLink(link, page, rev);
      const key = [link.relation, target.kind, target.pageId, target.fileId, target.url, target.anchor].join('\u0000');
      const usage = usages.get(key);
      if (!usage) usages.set(key, { key, status, relation: link.relation, target, pageIds: [page.id] });
      else if (!usage.pageIds.includes(page.id)) usage.pageIds.push(page.id);
    }
  }
  return [...usages.values()];
}
