import type { Page } from '@quire/proto/space-content';

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

/** Pages a visitor reads (documents), in order, hidden ones and their children left out. */
export function readingOrder(pages: readonly Page[]): PageNode[] {
  return flatten(pages).filter((n) => n.page.type === 'document' && !n.page.hidden && !n.parents.some((p) => p.hidden));
}

export function findByPath(pages: readonly Page[], path: string): PageNode | undefined {
  return flatten(pages).find((n) => n.page.path === path && n.page.type !== 'group');
}

/** The page at the root of a site-space: the first one read. */
export const firstPage = (pages: readonly Page[]): PageNode | undefined => readingOrder(pages)[0];

export function neighbours(pages: readonly Page[], pageId: string): { previous?: Page; next?: Page } {
  const order = readingOrder(pages);
  const i = order.findIndex((n) => n.page.id === pageId);
  if (i < 0) return {};
  return { previous: order[i - 1]?.page, next: order[i + 1]?.page };
}
