// The cover and layout of documents, read from their front matter when pages are answered (nothing
// of them is stored apart: a document is immutable, so what its front matter says is kept here by
// its id once read). A revision's pages ask for theirs all at once: one statement reads only the
// head of the documents that open with a front matter fence, the rest answer nothing.
import { FRONT_MATTER, pageLook, readFrontMatter, type PageLook } from '@quire/gitbook-layout';
import { LRUCache } from 'lru-cache';
import type { Db } from './index.ts';

/** How much of a document is read for its front matter: a longer block sets no cover nor layout. */
export const FRONT_MATTER_HEAD = 16_384;
// Ten times the pages the revision cache keeps (store/revisions.ts): most entries are the shared
// empty look, the others a few hundred bytes.
const CACHED_LOOKS = 50_000;
const NONE: PageLook = Object.freeze({});

// A block without these keys sets nothing: not parsed (most GitBook pages' hold a description only).
const LOOK_KEYS = /^(?:cover|layout)/m;

/** What the front matter at the head of a document's markdown sets of its page's cover and layout. */
export const lookOf = (markdown: string): PageLook => {
  const head = markdown.slice(0, FRONT_MATTER_HEAD);
  const front = LOOK_KEYS.test(FRONT_MATTER.exec(head)?.[1] ?? '') ? readFrontMatter(head) : undefined;
  const look = front && pageLook(front.data);
  return look && (look.cover || look.layout) ? look : NONE;
};

export function createLookStore({ pool }: Db) {
  const cache = new LRUCache<string, PageLook>({ max: CACHED_LOOKS });
  return {
    /** The look of each document of `ids` (the empty one for those that set none, or are not stored). */
    async looks(ids: Iterable<string>): Promise<Map<string, PageLook>> {
      const found = new Map<string, PageLook>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const look = cache.get(id);
        if (look) found.set(id, look);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      // `left` reads a stored (TOASTed) value's first bytes only, not the whole document.
      const { rows } = await pool.query<{ id: string; head: string }>(
        `SELECT id, left(markdown, $2) AS head FROM "Document" WHERE id = ANY($1::text[]) AND left(markdown, 3) = '---'`,
        [missing, FRONT_MATTER_HEAD],
      );
      const heads = new Map(rows.map((r) => [r.id, r.head]));
      for (const id of missing) {
        const head = heads.get(id);
        const look = head === undefined ? NONE : lookOf(head);
        cache.set(id, look);
        found.set(id, look);
      }
      return found;
    },
  };
}
