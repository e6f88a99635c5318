import { COMMON } from '@quire/proto/limits';
import { InvalidArgumentError } from './errors.js';

export const DEFAULT_PAGE_LIMIT = 50;

/** The page size to use: the default when none was asked for, never above the maximum. */
export function pageLimit(limit: number | undefined): number {
  if (!limit) return DEFAULT_PAGE_LIMIT;
  if (limit > COMMON.pageLimit.max) throw new InvalidArgumentError(`limit: must be at most ${COMMON.pageLimit.max}`);
  return limit;
}

const PREFIX = 'c1.';

/** Opaque cursor for the item after which the next page starts. */
export function encodeCursor(key: string): string {
  return Buffer.from(PREFIX + key, 'utf8').toString('base64url');
}

export function decodeCursor(page: string | undefined): string | undefined {
  if (!page) return undefined;
  const text = /^[A-Za-z0-9_-]+$/.test(page) ? Buffer.from(page, 'base64url').toString('utf8') : '';
  if (!text.startsWith(PREFIX) || text.length === PREFIX.length) throw new InvalidArgumentError('page: not a cursor this API gave out');
  return text.slice(PREFIX.length);
}

/**
 * Cuts a result fetched with `limit + 1` rows into the page and the cursor for the next one;
 * `next` is there only when more results exist.
 */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => string): { items: T[]; next?: string } {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: encodeCursor(keyOf(items[items.length - 1]!)) };
}

/** A page as a store reads it: rows after the key of the previous page's last item. */
export interface Page {
  after?: string;
  /** Rows to fetch: the page size plus one, to know whether more exist. */
  take: number;
}

/** Prisma's arguments for a page of rows keyed by `id`: `page.take` of them, after `page.after`. */
export function rowsAfter(page: Page): { take: number; cursor?: { id: string }; skip?: number } {
  return { take: page.take, ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}) };
}

/** Prisma's arguments for a page of rows in the order they were made (oldest first, `id` breaking ties). */
export function oldestFirst(page: Page) {
  return { orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }], ...rowsAfter(page) };
}

/** The request's page as the store wants it, with the limit kept to cut the answer. */
export function pageArgs(page: { page?: string; limit?: number } | undefined): { limit: number; page: Page } {
  const limit = pageLimit(page?.limit);
  return { limit, page: { after: decodeCursor(page?.page), take: limit + 1 } };
}

/** Prisma's arguments for a page of an organization's rows, oldest first. */
export function organizationPage(organizationId: string, page: Page) {
  return { where: { organizationId }, ...oldestFirst(page) };
}

/**
 * A list answer: the rows `fetch` reads for the request's page, cut to the page's limit and
 * presented, with the cursor of the next page when more exist.
 */
export async function listPage<R extends { id: string }, M>(
  request: { page?: string; limit?: number } | undefined,
  fetch: (page: Page) => Promise<R[]>,
  present: (rows: R[]) => M[] | Promise<M[]>,
): Promise<{ items: M[]; page: { next?: string } }> {
  const { limit, page } = pageArgs(request);
  const { items, next } = pageOf(await fetch(page), limit, (r) => r.id);
  return { items: await present(items), page: { next } };
}
