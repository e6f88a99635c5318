import type { PlannedContent, PlannedPage } from '@quire/gitbook-layout';

/** A page tree as content and the import plan have it: ids, and each page's source file. */
interface Sourced {
  id: string;
  git?: { oid: string; path: string };
  pages: Sourced[];
}

const flat = <T extends Sourced>(pages: T[]): T[] => pages.flatMap((p) => [p, ...flat(p.pages as T[])]);

/**
 * The pages of a push's import that its parent revision has as they are: when the files the push
 * changed (`git diff-tree` status by path, inside the docs) are all pages' files it modified (no
 * file added, removed or renamed, no table of contents, configuration, include or other file:
 * those move pages, links or shared text), every other page comes from the same file as before,
 * under the same id, with the same links. Undefined when the import must rebuild every page.
 */
export function keptPages(plan: PlannedPage[], parent: Sourced[], changed: Map<string, string>, isAsset: (path: string) => boolean): Set<string> | undefined {
  const planned = flat(plan);
  const sources = new Set(planned.flatMap((p) => (p.git ? [p.git.path] : [])));
  for (const [path, status] of changed) if (!isAsset(path) && (status !== 'M' || !sources.has(path))) return undefined;
  const before = new Map(flat(parent).map((p) => [p.id, p.git]));
  const kept = new Set<string>();
  for (const p of planned) {
    const was = before.get(p.id);
    if (p.type === 'document' && p.git && !changed.has(p.git.path) && was?.path === p.git.path && was.oid === p.git.oid) kept.add(p.id);
  }
  return kept;
}

type Blobs = Map<string, string>;

/**
 * The page files a push left as they were, whose text its import need not read (content keeps
 * those pages): when every file it changed in the docs is an asset or a page's file it modified,
 * and none is a reusable content's (keptPages' rule, on the revision last synced), the other
 * pages' files that the commit has with the same bytes. Undefined when every file must be read.
 */
export function unreadSources(
  current: Sourced[],
  reusable: { git?: { path: string } }[],
  blobs: Blobs,
  changed: Map<string, string>,
  isAsset: (path: string) => boolean,
): Set<string> | undefined {
  const sources = new Map(flat(current).flatMap((p) => (p.git ? [[p.git.path, p.git.oid] as const] : [])));
  const included = new Set(reusable.flatMap((r) => (r.git ? [r.git.path] : [])));
  for (const [path, status] of changed) if (!isAsset(path) && (status !== 'M' || !sources.has(path) || included.has(path))) return undefined;
  const unread = new Set<string>();
  for (const [path, oid] of sources) if (!changed.has(path) && blobs.get(path) === oid) unread.add(path);
  return unread;
}

type Slugged = Sourced & { slug: string };

/**
 * Whether a plan made without the `unread` pages' text (their titles unknown) holds: content keeps
 * each of those pages, each page rebuilt has the slug the space gives it (a sibling's title can
 * move a slug), and the pages include only reusable contents the space has (it keeps the space's).
 */
export function unreadPlanHolds(
  plan: { pages: Slugged[]; reusableContents: { id: string }[] },
  unread: Set<string>,
  kept: Set<string>,
  current: { pages: Slugged[]; reusableContents: { id: string }[] },
): boolean {
  const slugs = new Map(flat(current.pages).map((p) => [p.id, p.slug]));
  const known = new Set(current.reusableContents.map((r) => r.id));
  const holds = (p: Slugged) => kept.has(p.id) || (!(p.git && unread.has(p.git.path)) && slugs.get(p.id) === p.slug);
  return flat(plan.pages).every(holds) && plan.reusableContents.every((r) => known.has(r.id));
}

/**
 * The space's files a plan made without the unread pages' text still needs: those pages may link
 * to them. Each the commit has with the same bytes, outside the assets folder (planned whole).
 */
export function filesOfUnread<F extends { id: string; git?: { oid: string; path: string } }>(
  current: F[],
  planned: Set<string>,
  blobs: Blobs,
  isAsset: (path: string) => boolean,
): F[] {
  return current.filter((f) => f.git && !planned.has(f.id) && !isAsset(f.git.path) && blobs.get(f.git.path) === f.git.oid);
}

/** The plan's pages as content takes them, those `kept` sent without their markdown (content keeps its page). */
export function contentOf(p: PlannedContent, kept: Set<string> | undefined): PlannedContent & { keepDocument?: boolean } {
  const pages = p.pages.map((c) => contentOf(c, kept));
  return kept?.has(p.id) ? { ...p, markdown: '', keepDocument: true, pages } : { ...p, pages };
}

/** `git diff-tree -r -z --no-renames --name-status` output: each path's status letter (A, M, D, T). */
export function parseNameStatus(out: string): Map<string, string> {
  const fields = out.split('\0').filter(Boolean);
  const changed = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) changed.set(fields[i + 1]!, fields[i]!.charAt(0));
  return changed;
}
