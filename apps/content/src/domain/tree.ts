// The content of a revision as one value: the nested pages (their markdown is referred to by
// document id, stored apart), the files (their bytes by blob hash) and the variables. Stored as
// the `tree` JSON of a Revision row; immutable once written, so every change makes a new Tree.

export const PAGE_TYPES = ['document', 'group', 'link'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export interface GitRef {
  oid: string;
  path: string;
}

/** A page of the tree; optional fields are left out when empty so a large tree stays small. */
export interface TreePage {
  id: string;
  type: PageType;
  title: string;
  slug: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  /** Document pages: the SHA-256 of their markdown. */
  documentId?: string;
  /** Link pages: where they point. */
  href?: string;
  git?: GitRef;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
  pages: TreePage[];
}

export interface TreeFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes in the blob store. */
  blob: string;
  dimensions?: { width: number; height: number };
  git?: GitRef;
}

export interface Tree {
  pages: TreePage[];
  files: TreeFile[];
  variables: Record<string, string>;
}

export const emptyTree = (): Tree => ({ pages: [], files: [], variables: {} });

/** A tree as stored, with the parts an older or partial value may lack filled in. */
export function readTree(value: unknown): Tree {
  const v = (value ?? {}) as Partial<Tree>;
  return { pages: v.pages ?? [], files: v.files ?? [], variables: v.variables ?? {} };
}

/** A page where it sits: its parent (null at the root), its index among its siblings and its path. */
export interface Located {
  page: TreePage;
  parent: TreePage | null;
  index: number;
  path: string;
}

/** Every page, parents before children, in reading order, with where it sits. */
export function flatten(pages: TreePage[]): Located[] {
  const out: Located[] = [];
  const visit = (list: TreePage[], parent: TreePage | null, prefix: string) =>
    list.forEach((page, index) => {
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      out.push({ page, parent, index, path });
      visit(page.pages, page, path);
    });
  visit(pages, null, '');
  return out;
}

export const findPage = (pages: TreePage[], id: string): Located | undefined => flatten(pages).find((l) => l.page.id === id);

/** The page at `path` (slugs joined by "/"; leading and trailing slashes ignored). */
export function findPageByPath(pages: TreePage[], path: string): Located | undefined {
  const wanted = path.replace(/^\/+|(?<!\/)\/+$/g, '');
  return flatten(pages).find((l) => l.path === wanted);
}

/** The ids of the page and every page below it. */
export function subtreeIds(page: TreePage): string[] {
  return [page.id, ...page.pages.flatMap(subtreeIds)];
}

/** `slug`, or `slug-2`, `slug-3`... the first one no sibling (other than `self`) uses. */
export function uniqueSlug(slug: string, siblings: TreePage[], self?: string): string {
  const taken = new Set(siblings.filter((s) => s.id !== self).map((s) => s.slug));
  let candidate = slug;
  for (let n = 2; taken.has(candidate); n++) candidate = `${slug}-${n}`;
  return candidate;
}

/**
 * Copy of the pages and their lists, so a change never touches the tree it started from: a
 * change sets a page's fields and never changes a value inside one (its `git`), so those are
 * shared. A deep copy (structuredClone) of a 1,000-page tree cost more than the rest of an edit.
 */
export const clonePages = (pages: readonly TreePage[]): TreePage[] => pages.map((page) => Object.assign({}, page, { pages: clonePages(page.pages) }));

/** The document pages: what search indexes, with their paths. */
export function documentPages(tree: Tree): { pageId: string; documentId: string; title: string; path: string }[] {
  return flatten(tree.pages)
    .filter((l) => l.page.documentId)
    .map((l) => ({ pageId: l.page.id, documentId: l.page.documentId!, title: l.page.title, path: l.path }));
}
