// A revision's pages and files stored as content-addressed chunks: the pages in reading order
// (each without its children, with its depth instead) and the files, cut into runs that end
// after an item whose id hashes to a boundary. Boundaries depend on ids alone, which never
// change, so an edit changes only the chunk holding the page it touched (a move, the two it
// leaves and enters) and every other chunk is the parent revision's, stored once by its hash.
// An edit given its parent's chunks cuts and hashes only around what changed (rechunk).
import { hash } from 'node:crypto';
import type { Tree, TreeFile, TreePage } from './tree.ts';

/** Items (pages or files) a chunk holds on average: a one-page edit writes about this many. */
export const CHUNK_ITEMS = 32;
/** A run this long is cut anyway, whatever its ids, so no chunk grows past it. */
export const MAX_CHUNK_ITEMS = 4 * CHUNK_ITEMS;

/** A page as a chunk holds it: its depth (0 at the root), and the page without its children. */
export type PageRecord = readonly [depth: number, page: Omit<TreePage, 'pages'>];

export interface Chunk {
  /** SHA-256 of `json`, hex. */
  id: string;
  /** What is stored: the items (PageRecord or TreeFile) as a JSON array. */
  json: string;
}

/** FNV-1a, 32 bits: spreads ids well and costs next to nothing (a SHA per page cost more than the rest of cutting). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Whether a run of `length` items ends after the last, of this id: at a boundary id (about one in CHUNK_ITEMS) or at MAX_CHUNK_ITEMS. */
const endsRun = (length: number, id: string) => length === MAX_CHUNK_ITEMS || fnv1a(id) % CHUNK_ITEMS === 0;

/** The items in runs, each ending where endsRun says. */
export function cut<T>(items: readonly T[], idOf: (item: T) => string): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  for (const item of items) {
    run.push(item);
    if (endsRun(run.length, idOf(item))) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs;
}

/**
 * Whether JSON.stringify writes the same text for both (keys in the same order, those whose value
 * is undefined left out), without writing it: what makes two chunks of such values the same chunk.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  for (let i = 0, j = 0; ; i++, j++) {
    while (i < kx.length && x[kx[i]!] === undefined) i++;
    while (j < ky.length && y[ky[j]!] === undefined) j++;
    if (i === kx.length || j === ky.length) return i === kx.length && j === ky.length;
    if (kx[i] !== ky[j] || !sameJson(x[kx[i]!], y[ky[j]!])) return false;
  }
}

/** A chunk as stored and read back: its id and its items. */
export interface StoredChunk<T> {
  id: string;
  items: readonly T[];
}

/** A list's chunks: every one's id in order, and those it does not share with the previous list, to store. */
export interface Chunked {
  ids: string[];
  fresh: Chunk[];
}

/**
 * `items` as chunks, the same ones cutting them whole gives, from `previous` (the chunks of the
 * list they were edited from): the items equal at both ends are left as they were, the chunks
 * before the first changed item kept, and cutting starts at the start of the chunk holding it
 * (a chunk starts right after a cut, so cutting from there cuts as from the start). It ends at the
 * first cut past the last changed item that falls where a previous chunk starts: past it the
 * items, and so the cuts, are the previous ones. A one-page edit cuts and hashes a chunk or two,
 * and only compares the others.
 */
export function rechunk<T>(items: readonly T[], idOf: (item: T) => string, previous: readonly StoredChunk<T>[], same: (a: T, b: T) => boolean): Chunked {
  const old = previous.flatMap((c) => c.items);
  const n = items.length;
  const m = old.length;
  let lo = 0;
  while (lo < n && lo < m && same(items[lo]!, old[lo]!)) lo++;
  if (lo === n && n === m) return { ids: previous.map((c) => c.id), fresh: [] };
  let equalTail = 0;
  while (equalTail < n - lo && equalTail < m - lo && same(items[n - 1 - equalTail]!, old[m - 1 - equalTail]!)) equalTail++;
  // Where each previous chunk starts, and the index there, by position in `old`.
  const starts = new Map<number, number>();
  for (let i = 0, at = 0; i < previous.length; at += previous[i]!.items.length, i++) starts.set(at, i);
  let first = 0;
  let start = 0;
  while (first < previous.length - 1 && start + previous[first]!.items.length <= lo) start += previous[first++]!.items.length;
  const ids = previous.slice(0, first).map((c) => c.id);
  const fresh: Chunk[] = [];
  const add = (run: T[]) => {
    const made = chunk(run);
    ids.push(made.id);
    fresh.push(made);
  };
  let run: T[] = [];
  for (let p = start; p < n; p++) {
    run.push(items[p]!);
    if (!endsRun(run.length, idOf(items[p]!))) continue;
    add(run);
    run = [];
    const next = p + 1;
    const resumes = next >= n - equalTail ? starts.get(next - (n - m)) : undefined;
    if (resumes !== undefined) {
      for (const c of previous.slice(resumes)) ids.push(c.id);
      return { ids, fresh };
    }
  }
  if (run.length) add(run);
  return { ids, fresh };
}

/**
 * Every page, parents before children, as a record. Its children are set undefined, which JSON
 * leaves out: a replacer dropping them, or a rest pattern, cost several times the copy.
 */
function records(pages: readonly TreePage[], depth = 0, out: PageRecord[] = []): PageRecord[] {
  for (const page of pages) {
    out.push([depth, Object.assign({}, page, { pages: undefined })]);
    records(page.pages, depth + 1, out);
  }
  return out;
}

function chunk(items: unknown[]): Chunk {
  const json = JSON.stringify(items);
  return { id: hash('sha256', json, 'hex'), json };
}

const whole = (runs: unknown[][]): Chunked => {
  const fresh = runs.map(chunk);
  return { ids: fresh.map((c) => c.id), fresh };
};

const pageId = ([, page]: PageRecord) => page.id;
const fileId = (file: TreeFile) => file.id;
const sameRecord = (a: PageRecord, b: PageRecord) => a[0] === b[0] && sameJson(a[1], b[1]);

/** The chunks a tree is stored as: its pages' and its files' (its variables are kept apart, whole). */
export interface ChunkedTree {
  pages: Chunked;
  files: Chunked;
}

/**
 * The tree's pages and files as chunks: cut whole, or from the chunks of the tree it was edited
 * from (`previous`, as stored), the same chunks either way.
 */
export function chunkTree(tree: Tree, previous?: { pages: readonly StoredChunk<PageRecord>[]; files: readonly StoredChunk<TreeFile>[] }): ChunkedTree {
  const pages = records(tree.pages);
  if (!previous) return { pages: whole(cut(pages, pageId)), files: whole(cut(tree.files, fileId)) };
  return { pages: rechunk(pages, pageId, previous.pages, sameRecord), files: rechunk(tree.files, fileId, previous.files, sameJson) };
}

/** The tree the chunks (their items, in order) and the variables make: chunkTree's inverse. */
export function assembleTree(pageChunks: readonly (readonly PageRecord[])[], fileChunks: readonly (readonly TreeFile[])[], variables: Record<string, string>): Tree {
  const pages: TreePage[] = [];
  // The children lists open at each depth: a page goes into the one at its depth.
  const open: TreePage[][] = [pages];
  for (const records of pageChunks)
    for (const [depth, fields] of records) {
      const siblings = open[depth];
      if (!siblings) throw new Error(`A page record at depth ${depth} does not nest under the records before it`);
      // Not a spread: on parsed objects it cost 20 times Object.assign.
      const page: TreePage = Object.assign({}, fields, { pages: [] });
      siblings.push(page);
      open.length = depth + 1;
      open.push(page.pages);
    }
  return { pages, files: fileChunks.flat(), variables };
}
