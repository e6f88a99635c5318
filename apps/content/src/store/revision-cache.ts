import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { assembleTree, type PageRecord, type StoredChunk } from '../domain/chunks.ts';
import { flatten, readTree, type Tree, type TreeFile } from '../domain/tree.ts';
import type { RevisionRow } from './revisions.ts';

// Revisions never change once written, and an edit starts from the revision the previous edit
// wrote: the last ones read or written are kept assembled (a large tree costs more to read and
// assemble than the edit), up to this many pages in all; and, apart, the last chunks read or
// written, parsed, up to this many items (pages and files) in all, so a revision not kept reads
// only the chunks it does not share with those.
const CACHED_PAGES = 5_000;
const CACHED_CHUNK_ITEMS = 20_000;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A chunk's items as parsed from its JSON. */
type ChunkItems = readonly PageRecord[] | readonly TreeFile[];

/** A Revision row as read: `tree` for rows written before chunks, the chunk lists and variables since. */
export interface StoredRevision extends Omit<RevisionRow, 'tree'> {
  tree: unknown;
  pageChunks: string[];
  fileChunks: string[];
  variables: Record<string, string>;
}

/**
 * The revisions and chunks last read or written, kept parsed and frozen (every caller shares
 * them), and what reads a revision's tree through them.
 */
export function createRevisionCache(pool: pg.Pool) {
  const revisions = new LRUCache<string, RevisionRow>({ maxSize: CACHED_PAGES, sizeCalculation: (row) => Math.max(1, flatten(row.tree.pages).length) });
  const chunks = new LRUCache<string, ChunkItems>({ maxSize: CACHED_CHUNK_ITEMS, sizeCalculation: (items) => Math.max(1, items.length) });
  // The chunk ids of the rows kept that are stored as chunks: an edit of one re-cuts from them.
  const chunkIds = new WeakMap<RevisionRow, { pages: string[]; files: string[] }>();
  const keep = (row: RevisionRow, ids?: { pages: string[]; files: string[] }): RevisionRow => {
    revisions.set(row.id, deepFreeze(row));
    if (ids) chunkIds.set(row, ids);
    return row;
  };

  /** The chunks of the revision `id` if it and they are all kept: what an edit of it re-cuts from. */
  function keptChunks(id: string | undefined) {
    const row = id === undefined ? undefined : revisions.get(id);
    const ids = row && chunkIds.get(row);
    if (!ids) return undefined;
    const stored = <T>(list: string[]) => {
      const out: StoredChunk<T>[] = [];
      for (const chunkId of list) {
        const items = chunks.get(chunkId);
        if (!items) return undefined;
        out.push({ id: chunkId, items: items as readonly T[] });
      }
      return out;
    };
    const pages = stored<PageRecord>(ids.pages);
    const files = stored<TreeFile>(ids.files);
    return pages && files && { pages, files };
  }

  /** The row's tree: its own JSON (a row from before chunks), or its chunks, those not kept read in one query. */
  async function treeOf(r: StoredRevision): Promise<Tree> {
    if (r.tree !== null) return readTree(r.tree);
    const found = new Map<string, ChunkItems>();
    const missing: string[] = [];
    for (const id of [...r.pageChunks, ...r.fileChunks]) {
      const items = chunks.get(id);
      if (items) found.set(id, items);
      else missing.push(id);
    }
    if (missing.length) {
      const { rows } = await pool.query<{ id: string; content: ChunkItems }>('SELECT id, content FROM "TreeChunk" WHERE id = ANY($1::text[])', [missing]);
      for (const { id, content } of rows) {
        found.set(id, deepFreeze(content));
        chunks.set(id, content);
      }
    }
    const items = <T extends ChunkItems>(ids: string[]) =>
      ids.map((id) => {
        const got = found.get(id);
        if (!got) throw new Error(`Revision "${r.id}": chunk "${id}" is not stored`);
        return got as T;
      });
    return assembleTree(items<readonly PageRecord[]>(r.pageChunks), items<readonly TreeFile[]>(r.fileChunks), r.variables);
  }

  return {
    keptChunks,
    treeOf,
    /** The revision, when kept. */
    get: (id: string) => revisions.get(id),
    keep,
    /** Whether the chunk is kept (and so stored: chunks are never changed nor removed). */
    hasChunk: (id: string) => chunks.has(id),
    /** Keeps a chunk just stored, parsed from its JSON as a reader would have it. */
    keepChunk(id: string, json: string) {
      if (!chunks.has(id)) chunks.set(id, deepFreeze(JSON.parse(json) as ChunkItems));
    },
  };
}
