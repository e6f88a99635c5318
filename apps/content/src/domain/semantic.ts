// What changed between two trees, as GitBook's semantic changes (RevisionSemanticChanges): pages
// created, edited, moved and deleted, files created, edited and deleted, variables edited. A
// page's markdown is compared by its document id (the SHA-256 of the markdown), so no document
// is read. Plain function: the handler loads the trees (a revision and its parent, or a change
// request's head and base) and presents the files.
import { flatten, type Located, type PageType, type Tree, type TreeFile } from './tree.ts';

export const DEFAULT_SEMANTIC_LIMIT = 10;

export interface ChangedPage {
  id: string;
  type: PageType;
  title: string;
  path: string;
}

export interface Before<T> {
  before?: T;
  after?: T;
}

export type SemanticChange =
  | { type: 'page_created'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, Before<string>> }
  | { type: 'page_deleted'; page: ChangedPage }
  | { type: 'page_moved'; page: ChangedPage; parent: Before<ChangedPage> }
  | { type: 'file_created'; file: TreeFile }
  | { type: 'file_edited'; file: TreeFile; attributes: Record<string, Before<string | number | TreeFile['dimensions']>> }
  | { type: 'file_deleted'; file: TreeFile }
  | { type: 'variables_edited'; variables: Record<string, Before<string>> };

export interface SemanticChanges {
  changes: SemanticChange[];
  /** How many changes were left out above the limit. */
  more: number;
}

const changedPage = (l: Located): ChangedPage => ({ id: l.page.id, type: l.page.type, title: l.page.title, path: l.path });

// The page fields GitBook reports per page type; `document` is the markdown's hash, `href` a link's target.
const PAGE_ATTRIBUTES: Record<PageType, readonly ('title' | 'description' | 'slug' | 'documentId' | 'emoji' | 'href')[]> = {
  document: ['title', 'description', 'slug', 'documentId', 'emoji'],
  group: ['title', 'emoji', 'slug'],
  link: ['title', 'emoji', 'href'],
};
const ATTRIBUTE_NAME: Record<string, string> = { documentId: 'document', href: 'target' };

function diffFields<T extends object, V>(before: T, after: T, keys: readonly (keyof T)[], rename: Record<string, string> = {}) {
  const out: Record<string, Before<V>> = {};
  for (const key of keys) {
    const a = before[key] as V | undefined;
    const b = after[key] as V | undefined;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const change: Before<V> = {};
    if (a !== undefined) change.before = a;
    if (b !== undefined) change.after = b;
    out[rename[key as string] ?? (key as string)] = change;
  }
  return out;
}

/**
 * The changes from `base` to `head`, pages in reading order (created, edited and moved pages as
 * `head` has them, then deleted ones as `base` had them), then files, then variables; at most
 * `limit`, with how many more there were. A page is moved when its parent changed: a reorder
 * among the same siblings is not reported, as inserting one page would otherwise "move" its
 * later siblings.
 */
export function semanticChanges(base: Tree, head: Tree, limit = DEFAULT_SEMANTIC_LIMIT): SemanticChanges {
  const all: SemanticChange[] = [];
  const before = new Map(flatten(base.pages).map((l) => [l.page.id, l]));
  const after = flatten(head.pages);
  const afterById = new Map(after.map((l) => [l.page.id, l]));

  for (const l of after) {
    const old = before.get(l.page.id);
    if (!old) {
      all.push({ type: 'page_created', page: changedPage(l) });
      continue;
    }
    const attributes = diffFields<typeof l.page, string>(old.page, l.page, PAGE_ATTRIBUTES[l.page.type], ATTRIBUTE_NAME);
    if (Object.keys(attributes).length > 0) all.push({ type: 'page_edited', page: changedPage(l), attributes });
    if ((old.parent?.id ?? null) !== (l.parent?.id ?? null)) {
      const parent: Before<ChangedPage> = {};
      if (old.parent) parent.before = changedPage(before.get(old.parent.id)!);
      if (l.parent) parent.after = changedPage(afterById.get(l.parent.id)!);
      all.push({ type: 'page_moved', page: changedPage(l), parent });
    }
  }
  for (const l of before.values()) if (!afterById.has(l.page.id)) all.push({ type: 'page_deleted', page: changedPage(l) });

  const oldFiles = new Map(base.files.map((f) => [f.id, f]));
  const newFileIds = new Set(head.files.map((f) => f.id));
  for (const file of head.files) {
    const old = oldFiles.get(file.id);
    if (!old) {
      all.push({ type: 'file_created', file });
      continue;
    }
    const attributes = diffFields<TreeFile, string | number | TreeFile['dimensions']>(old, file, ['name', 'contentType', 'size', 'blob', 'dimensions']);
    if (Object.keys(attributes).length > 0) all.push({ type: 'file_edited', file, attributes });
  }
  for (const file of base.files) if (!newFileIds.has(file.id)) all.push({ type: 'file_deleted', file });

  const variables = diffFields<Record<string, string>, string>(base.variables, head.variables, [...new Set([...Object.keys(base.variables), ...Object.keys(head.variables)])]);
  if (Object.keys(variables).length > 0) all.push({ type: 'variables_edited', variables });

  return { changes: all.slice(0, limit), more: Math.max(0, all.length - limit) };
}
