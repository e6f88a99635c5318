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
