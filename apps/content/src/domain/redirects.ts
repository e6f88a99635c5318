// A revision's redirects: old paths of the published space (a Git import's `.gitbook.yaml`
// `redirects`) and the page each leads to. A Git import sets them; every later revision (edits,
// merges, other imports) carries them, so a visitor's old link keeps working after an edit.
import { InvalidArgumentError } from '@quire/service-kit';
import { flatten, type TreePage } from './tree.ts';

export interface Redirect {
  /** Relative to the space's published URL, without leading or trailing slashes. */
  path: string;
  pageId: string;
  /** An anchor in the page, without `#`; empty for the page's top. */
  anchor: string;
}

export const MAX_REDIRECTS = 5_000;
const MAX_PATH = 512;
const MAX_ANCHOR = 256;
// Control characters and `#`/`?` cannot be part of a path a visitor requests.
const BAD_PATH = /[\u0000-\u001f\u007f#?\\]/;

/** The redirects as stored: paths trimmed of slashes; each checked and its page one of `pages`. */
export function checkRedirects(items: readonly Redirect[], pages: readonly TreePage[]): Redirect[] {
  if (items.length > MAX_REDIRECTS) throw new InvalidArgumentError(`redirects: at most ${MAX_REDIRECTS} are allowed`);
  const ids = new Set(flatten([...pages]).map((l) => l.page.id));
  const seen = new Set<string>();
  return items.map((r, i) => {
    const at = `redirects.items[${i}]`;
    const path = r.path.replace(/^\/+|(?<!\/)\/+$/g, '');
    if (path === '' || path.length > MAX_PATH || BAD_PATH.test(path) || path.split('/').some((s) => s === '' || s === '.' || s === '..'))
      throw new InvalidArgumentError(`${at}.path: must be a relative path of at most ${MAX_PATH} characters without empty, "." or ".." segments`);
    if (seen.has(path)) throw new InvalidArgumentError(`${at}.path: "${path}" is redirected twice`);
    seen.add(path);
    if (!ids.has(r.pageId)) throw new InvalidArgumentError(`${at}.pageId: no page "${r.pageId}" in the revision`);
    const anchor = r.anchor.replace(/^#/, '');
    if (anchor.length > MAX_ANCHOR || BAD_PATH.test(anchor)) throw new InvalidArgumentError(`${at}.anchor: must be at most ${MAX_ANCHOR} characters without control characters`);
    return { path, pageId: r.pageId, anchor };
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A merge's list kept whole with each revision (redirects, reusable contents): the side that
 * changed it from the base (ours when both did).
 */
export const mergeWhole = <T>(base: readonly T[], ours: readonly T[], theirs: readonly T[]): readonly T[] => (same(ours, base) ? theirs : ours);
