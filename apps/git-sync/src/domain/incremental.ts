import { isMarkdown, type PlannedContent, type PlannedPage } from '@quire/gitbook-layout';

/** A page tree as content and the import plan have it: ids, and each page's source file. */
interface Sourced {
  id: string;
  git?: { oid: string; path: string };
  pages: Sourced[];
}

const flat = <T extends Sourced>(pages: T[]): T[] => pages.flatMap((p) => [p, ...flat(p.pages as T[])]);

/** The docs as a push's import sees them: which files are assets, and which are SUMMARY.md and `.gitbook.yaml` (`layout`). */
export interface Docs {
  isAsset: (path: string) => boolean;
  layout: Set<string>;
}

/**
 * Whether the files a push changed (`git diff-tree` status by path, inside the docs) leave the
 * page tree and links as they were: each is an asset, or a markdown file it modified that is a
 * page's (`sources`) or no page's (nothing in the space reads its text then, unless `included`).
 * A file added, removed or renamed, the table of contents, the configuration or another file
 * (pages link to it) may move pages or links.
 */
function treeKept(changed: Map<string, string>, sources: Set<string>, docs: Docs, included = new Set<string>()): boolean {
  for (const [path, status] of changed) {
    if (docs.isAsset(path)) continue;
    if (status !== 'M' || included.has(path) || (!sources.has(path) && (!isMarkdown(path) || docs.layout.has(path)))) return false;
  }
  return true;
}

/**
 * The pages of a push's import that its parent revision has as they are: when the files it changed
 * leave the tree and links as they were (treeKept), every page whose file it left alone comes from
 * the same file as before, under the same id. Undefined when the import must rebuild every page.
 */
export function keptPages(plan: PlannedPage[], parent: Sourced[], changed: Map<string, string>, docs: Docs): Set<string> | undefined {
  const planned = flat(plan);
  if (!treeKept(changed, new Set(planned.flatMap((p) => (p.git ? [p.git.path] : []))), docs)) return undefined;
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
 * those pages): when the files it changed leave the tree and links of the revision last synced
 * as they were (treeKept), none a reusable content's, the other pages' files that the commit has
 * with the same bytes. Undefined when every file must be read.
 */
export function unreadSources(current: Sourced[], reusable: { git?: { path: string } }[], blobs: Blobs, changed: Map<string, string>, docs: Docs): Set<string> | undefined {
  const sources = new Map(flat(current).flatMap((p) => (p.git ? [[p.git.path, p.git.oid] as const] : [])));
  if (!treeKept(changed, new Set(sources.keys()), docs, new Set(reusable.flatMap((r) => (r.git ? [r.git.path] : []))))) return undefined;
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
