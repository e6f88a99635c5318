import type { Page, Redirect } from '@quire/proto/space-content';

// A revision's page tree as a reader walks it: the pages in reading order (groups hold pages;
// hidden pages are reachable by path but left out of navigation), breadcrumbs, previous and next.

export interface PageNode {
  page: Page;
  /** Ancestors from the top, groups included. */
  parents: Page[];
}

/** Every page in reading order, depth first. */
export function flatten(pages: readonly Page[], parents: Page[] = []): PageNode[] {
  return pages.flatMap((page) => [{ page, parents }, ...flatten(page.pages, [...parents, page])]);
}

interface Index {
  order: PageNode[];
  position: Map<string, number>;
  byPath: Map<string, PageNode>;
  byId: Map<string, PageNode>;
}

// A revision's tree never changes (revisions are immutable and kept as one object), so its index
// is made once per tree: a cached page costs map lookups, not a walk over every page.
const indexes = new WeakMap<readonly Page[], Index>();

function indexOf(pages: readonly Page[]): Index {
  let index = indexes.get(pages);
  if (index) return index;
  const all = flatten(pages);
  const order = all.filter((n) => n.page.type === 'document' && !n.page.hidden && !n.parents.some((p) => p.hidden));
  const byPath = new Map<string, PageNode>();
  for (const n of all) if (n.page.type !== 'group' && !byPath.has(n.page.path)) byPath.set(n.page.path, n);
  index = { order, position: new Map(order.map((n, i) => [n.page.id, i])), byPath, byId: new Map(all.map((n) => [n.page.id, n])) };
  indexes.set(pages, index);
  return index;
}

/** Pages a visitor reads (documents), in order, hidden ones and their children left out. */
export const readingOrder = (pages: readonly Page[]): readonly PageNode[] => indexOf(pages).order;

/** The page is one a visitor finds (in the reading order): not hidden, nor below a hidden page. */
export const listed = (pages: readonly Page[], pageId: string): boolean => indexOf(pages).position.has(pageId);

export const findByPath = (pages: readonly Page[], path: string): PageNode | undefined => indexOf(pages).byPath.get(path);

export const findById = (pages: readonly Page[], id: string): Page | undefined => indexOf(pages).byId.get(id)?.page;

/** The page at the root of a site-space: the first one read. */
export const firstPage = (pages: readonly Page[]): PageNode | undefined => readingOrder(pages)[0];

export function neighbours(pages: readonly Page[], pageId: string): { previous?: Page; next?: Page } {
  const { order, position } = indexOf(pages);
  const i = position.get(pageId);
  if (i === undefined) return {};
  return { previous: order[i - 1]?.page, next: order[i + 1]?.page };
}

const redirectIndexes = new WeakMap<readonly Redirect[], Map<string, Redirect>>();

/**
 * Where an old path of the space leads (its revision's redirects, from `.gitbook.yaml`): the page
 * and the anchor; undefined when no redirect names the path or its page is gone.
 */
export function redirectOf(pages: readonly Page[], redirects: readonly Redirect[], path: string): { page: Page; anchor: string } | undefined {
  let byPath = redirectIndexes.get(redirects);
  if (!byPath) {
    byPath = new Map(redirects.map((r) => [r.path, r]));
    redirectIndexes.set(redirects, byPath);
  }
  const r = byPath.get(path);
  const node = r && indexOf(pages).byId.get(r.pageId);
  return node && node.page.type !== 'group' ? { page: node.page, anchor: r.anchor } : undefined;
}
