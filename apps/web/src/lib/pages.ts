import type { RevisionPage } from '../types.ts';

/** Every page of a tree, depth first, in reading order. */
export function flatten(pages: RevisionPage[]): RevisionPage[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
}

/** The page at `path`, or the first document of the space when the path is empty. */
export function pageAt(pages: RevisionPage[], path: string): RevisionPage | undefined {
  const all = flatten(pages);
  if (!path) return all.find((p) => p.type === 'document');
  return all.find((p) => p.path === path);
}

/** Where a space's (or one of its revisions') content is read: `/spaces/{id}/content` or `/spaces/{id}/revisions/{rev}`. */
export const contentBase = (space: string, revision?: string) => (revision ? `/spaces/${space}/revisions/${revision}` : `/spaces/${space}/content`);
