// Request rules shared by search and the link lists: the query's bounds and offset paging (results
// ranked or computed in one pass have no natural key to continue after).
import { decodeCursor, encodeCursor, InvalidArgumentError, pageLimit } from '@quire/service-kit';

export const MAX_QUERY_LENGTH = 512;
/** Matching sections shown under each page found. */
export const SECTIONS_PER_PAGE = 5;

export function checkQuery(query: string): string {
  const q = query.trim();
  if (q === '') throw new InvalidArgumentError('query: required');
  if (query.length > MAX_QUERY_LENGTH) throw new InvalidArgumentError(`query: must be at most ${MAX_QUERY_LENGTH} characters`);
  return q;
}

/** The page asked for as an offset into the whole result, and the limit. */
export function offsetPage(req: { page?: string; limit?: number } | undefined): { offset: number; limit: number } {
  const limit = pageLimit(req?.limit);
  const cursor = decodeCursor(req?.page);
  if (cursor === undefined) return { offset: 0, limit };
  if (!/^\d{1,9}$/.test(cursor)) throw new InvalidArgumentError('page: not a cursor this API gave out');
  return { offset: Number(cursor), limit };
}

/** The page's items out of `rows` fetched from `offset` with `limit + 1`, and the next cursor. */
export function offsetPageOf<T>(rows: T[], offset: number, limit: number): { items: T[]; next?: string } {
  if (rows.length <= limit) return { items: rows };
  return { items: rows.slice(0, limit), next: encodeCursor(String(offset + limit)) };
}

/** The words of a web-search query, lower case, without operators, quotes or excluded words. */
export function queryTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'or' && !w.startsWith('-'))
    .flatMap((w) => w.split(/[^\p{L}\p{N}]+/u))
    .filter((w) => w.length > 1);
}

const SNIPPET_CHARS = 200;

/**
 * The part of a section's text around the first word matching the query, about 200 characters,
 * cut at word boundaries and marked with "…" where text was left out. Words match by their start
 * (the stem: "installing" matches "install"), which is what the English stemmer mostly keeps.
 */
export function snippet(body: string, terms: string[], max = SNIPPET_CHARS): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const stems = terms.map((t) => t.slice(0, Math.max(3, t.length - 2)));
  let hit = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0].toLowerCase();
    if (stems.some((s) => w.startsWith(s))) {
      hit = m.index;
      break;
    }
  }
  // Some context before the match, never more than a third of the snippet.
  let start = Math.max(0, hit - Math.floor(max / 3));
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + max);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
