// A revision's pages and files stored as content-addressed chunks: the pages in reading order
// (each without its children, with its depth instead) and the files, cut into runs that end
// after an item whose id hashes to a boundary. Boundaries depend on ids alone, which never
// change, so an edit changes only the chunk holding the page it touched (a move, the two it
// leaves and enters) and every other chunk is the parent revision's, stored once by its hash.
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

/** Whether a chunk ends after the item with this id (about one id in CHUNK_ITEMS). */
const endsChunk = (id: string) => fnv1a(id) % CHUNK_ITEMS === 0;

/** The items in runs, each ending at a boundary id or at MAX_CHUNK_ITEMS. */
export function cut<T>(items: readonly T[], idOf: (item: T) => string): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  for (const item of items) {
    run.push(item);
    if (run.length === MAX_CHUNK_ITEMS || endsChunk(idOf(item))) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs;
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

const chunk = (items: unknown[]): Chunk => {
  const json = JSON.stringify(items);
  return { id: hash('sha256', json, 'hex'), json };
};

/** The tree's pages and files as chunks (its variables are kept apart, whole). */
export function chunkTree(tree: Tree): { pages: Chunk[]; files: Chunk[] } {
  return { pages: cut(records(tree.pages), ([, page]) => page.id).map(chunk), files: cut(tree.files, (file) => file.id).map(chunk) };
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
