import type { PlannedContent, PlannedPage } from '@quire/gitbook-layout';

/** A page tree as content and the import plan have it: ids, and each page's source file. */
interface Sourced {
  id: string;
  git?: { oid: string; path: string };
  pages: Sourced[];
}

const flat = <T extends Sourced>(pages: T[]): T[] => pages.flatMap((p) => [p, ...flat(p.pages as T[])]);

/**
 * The pages of a push's import that its parent revision has as they are: when the files the push
 * changed (`git diff-tree` status by path, inside the docs) are all pages' files it modified (no
 * file added, removed or renamed, no table of contents, configuration, include or other file:
 * those move pages, links or shared text), every other page comes from the same file as before,
 * under the same id, with the same links. Undefined when the import must rebuild every page.
 */
export function keptPages(plan: PlannedPage[], parent: Sourced[], changed: Map<string, string>, isAsset: (path: string) => boolean): Set<string> | undefined {
  const planned = flat(plan);
  const sources = new Set(planned.flatMap((p) => (p.git ? [p.git.path] : [])));
  for (const [path, status] of changed) if (!isAsset(path) && (status !== 'M' || !sources.has(path))) return undefined;
  const before = new Map(flat(parent).map((p) => [p.id, p.git]));
  const kept = new Set<string>();
  for (const p of planned) {
    const was = before.get(p.id);
    if (p.type === 'document' && p.git && !changed.has(p.git.path) && was?.path === p.git.path && was.oid === p.git.oid) kept.add(p.id);
  }
  return kept;
}

/** The plan's pages as content takes them, those `kept` sent without their markdown (content keeps its page). */
export function contentOf(p: PlannedContent, kept: Set<string> | undefined): PlannedContent & { keepDocument?: boolean } {
  const pages = p.pages.map((c) => contentOf(c, kept));
  return kept?.has(p.id) ? { ...p, markdown: '', keepDocument: true, pages } : { ...p, pages };
}

/** `git diff-tree -r -z --no-renames --name-status` output: each path's status letter (A, M, D, T). */
export function parseNameStatus(out: string): Map<string, string> {
  const fields = out.split('\0').filter(Boolean);
  const changed = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) changed.set(fields[i + 1]!, fields[i]!.charAt(0));
  return changed;
}
