// Three-way merge of revisions: `theirs` into `ours` from their common `base`. Page by page and
// field by field the side that changed wins; both changing one field differently is a conflict,
// except documents, merged line by line (diff3) and in conflict only where the edits overlap.
import { diff3Merge } from 'node-diff3';
import { documentOfMarkdown, type DocumentBody } from './changes.ts';
import { flatten, uniqueSlug, type Tree, type TreeFile, type TreePage } from './tree.ts';

export interface MergeConflict {
  pageId: string;
  title: string;
  reason: string;
}

export interface MergeInput {
  base: Tree;
  ours: Tree;
  theirs: Tree;
  /** Markdown by document id, for the documents both sides changed (see `documentsToMerge`). */
  markdown: Map<string, string>;
}

export type MergeResult = { tree: Tree; documents: Map<string, DocumentBody>; conflicts: [] } | { tree?: undefined; documents?: undefined; conflicts: MergeConflict[] };

/** A page without its children, with where it sits. */
interface Flat {
  page: Omit<TreePage, 'pages'>;
  parent: string;
  /** The previous sibling's id ('' when first): the position as an edit sees it. */
  after: string;
  order: number;
}

const ROOT = '';
const FIELDS = ['type', 'title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'href', 'git'] as const;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// Revisions never change, so a tree is flattened once however many steps of a merge read it.
const flattened = new WeakMap<Tree, Map<string, Flat>>();

function flat(tree: Tree): Map<string, Flat> {
  const known = flattened.get(tree);
  if (known) return known;
  const out = new Map<string, Flat>();
  flattened.set(tree, out);
  flatten(tree.pages).forEach((l, order) => {
    const siblings = l.parent ? l.parent.pages : tree.pages;
    const { pages: _children, ...page } = l.page;
    out.set(l.page.id, { page, parent: l.parent?.id ?? ROOT, after: l.index > 0 ? siblings[l.index - 1]!.id : '', order });
  });
  return out;
}

/** The document ids whose markdown a merge of these trees reads: the pages both sides edited. */
export function documentsToMerge(base: Tree, ours: Tree, theirs: Tree): string[] {
  const [b, o, t] = [flat(base), flat(ours), flat(theirs)];
  const ids = new Set<string>();
  for (const [id, bp] of b) {
    const od = o.get(id)?.page.documentId;
    const td = t.get(id)?.page.documentId;
    if (od && td && od !== td && od !== bp.page.documentId && td !== bp.page.documentId) for (const d of [bp.page.documentId, od, td]) if (d) ids.add(d);
  }
  return [...ids];
}

/** Line-wise 3-way merge; undefined when edits overlap. */
export function mergeText(base: string, ours: string, theirs: string): string | undefined {
  const regions = diff3Merge(ours, base, theirs, { excludeFalseConflicts: true, stringSeparator: '\n' });
  const lines: string[] = [];
  for (const r of regions) {
    if (r.conflict) return undefined;
    lines.push(...(r.ok as string[]));
  }
  return lines.join('\n');
}

/** Which side's value a field takes; `conflict` when both changed it differently. */
function pick<T>(base: T, ours: T, theirs: T): { value: T; from: 'ours' | 'theirs' | 'both' } | 'conflict' {
  if (same(ours, theirs)) return { value: ours, from: 'both' };
  if (same(base, theirs)) return { value: ours, from: 'ours' };
  if (same(base, ours)) return { value: theirs, from: 'theirs' };
  return 'conflict';
}

function edited(base: Flat, side: Flat): boolean {
  return FIELDS.some((f) => !same(base.page[f], side.page[f])) || base.page.documentId !== side.page.documentId;
}

export function mergeTrees({ base, ours, theirs, markdown }: MergeInput): MergeResult {
  const [b, o, t] = [flat(base), flat(ours), flat(theirs)];
  const conflicts: MergeConflict[] = [];
  const documents = new Map<string, DocumentBody>();
  const conflict = (p: Flat, reason: string) => conflicts.push({ pageId: p.page.id, title: p.page.title, reason });
  /** The merged pages, and for each whether its position comes from theirs. */
  const result = new Map<string, { flat: Flat; theirsPlace: boolean }>();

  const ids = new Set([...o.keys(), ...t.keys(), ...b.keys()]);
  for (const id of ids) {
    const [bp, op, tp] = [b.get(id), o.get(id), t.get(id)];
    if (!bp) {
      if (op && tp && !same(op.page, tp.page)) conflict(op, 'added twice');
      else if (op) result.set(id, { flat: op, theirsPlace: false });
      else result.set(id, { flat: tp!, theirsPlace: true });
      continue;
    }
    if (!op || !tp) {
      const kept = op ?? tp;
      if (kept && (edited(bp, kept) || kept.parent !== bp.parent)) conflict(kept, 'deleted and edited');
      continue;
    }
    const page = { ...op.page } as Record<string, unknown>;
    for (const f of FIELDS) {
      const r = pick(bp.page[f], op.page[f], tp.page[f]);
      if (r === 'conflict') {
        // Git metadata is bookkeeping of the last sync, not an edit: ours stands.
        if (f !== 'git') conflict(op, f);
        continue;
      }
      if (r.value === undefined) delete page[f];
      else page[f] = r.value;
    }
    // A document changed on one side only keeps that side's id, its model with it.
    const doc = pick(bp.page.documentId, op.page.documentId, tp.page.documentId);
    if (doc !== 'conflict') page.documentId = doc.value;
    else {
      const [ourText, theirText] = [markdown.get(op.page.documentId!) ?? '', markdown.get(tp.page.documentId!) ?? ''];
      const text = mergeText(markdown.get(bp.page.documentId ?? '') ?? '', ourText, theirText);
      if (text === undefined) conflict(op, 'document');
      // The merge is one side's text: that side's document (and the model a client gave it) stands.
      else if (text === ourText) page.documentId = op.page.documentId;
      else if (text === theirText) page.documentId = tp.page.documentId;
      else {
        // Merged as text, the page is its markdown: the parts of either side's model that markdown
        // cannot carry (mentions, buttons, colours...) come from the markdown, as written there.
        const kept = documentOfMarkdown(text);
        page.documentId = kept.id;
        documents.set(kept.id, kept.body);
      }
    }
    page.updatedAt = op.page.updatedAt > tp.page.updatedAt ? op.page.updatedAt : tp.page.updatedAt;
    const parent = pick(bp.parent, op.parent, tp.parent);
    if (parent === 'conflict') {
      conflict(op, 'moved twice');
      continue;
    }
    // Within one parent, a page one side placed elsewhere among its siblings goes there.
    const ourMove = moved(b, bp, o, op);
    const theirMove = moved(b, bp, t, tp);
    if (ourMove && theirMove && parent.from !== 'both' && stableAfter(b, o, op) !== stableAfter(b, t, tp)) {
      conflict(op, 'moved twice');
      continue;
    }
    const theirsPlace = parent.from === 'theirs' || (!ourMove && theirMove);
    const from = theirsPlace ? tp : op;
    result.set(id, { flat: { page: page as Flat['page'], parent: parent.value, after: from.after, order: from.order }, theirsPlace });
  }

  for (const [id, r] of result) {
    if (r.flat.parent !== ROOT && !result.has(r.flat.parent)) conflict(r.flat, 'parent deleted');
    else if (cyclic(result, id)) conflict(r.flat, 'moved twice');
  }
  const files = mergeFiles(base.files, ours.files, theirs.files, (f, reason) => conflicts.push({ pageId: f.id, title: f.name, reason }));
  const variables = mergeVariables(base.variables, ours.variables, theirs.variables, (key) => conflicts.push({ pageId: '', title: `variable ${key}`, reason: 'variable' }));
  if (conflicts.length) return { conflicts };
  return { tree: { pages: build(result), files: files!, variables }, documents, conflicts: [] };
}

/**
 * The previous sibling that was there in base too: pages inserted or deleted around a page do not
 * count as moving it.
 */
function stableAfter(base: Map<string, Flat>, side: Map<string, Flat>, f: Flat): string {
  let after = f.after;
  while (after && !base.has(after)) after = side.get(after)!.after;
  return after;
}

function moved(base: Map<string, Flat>, bp: Flat, side: Map<string, Flat>, sp: Flat): boolean {
  if (sp.parent !== bp.parent) return true;
  let after = bp.after;
  while (after && !side.has(after)) after = base.get(after)!.after;
  return stableAfter(base, side, sp) !== after;
}

function cyclic(result: Map<string, { flat: Flat }>, id: string): boolean {
  const seen = new Set<string>();
  for (let at: string | undefined = id; at && at !== ROOT; at = result.get(at)?.flat.parent) {
    if (seen.has(at)) return true;
    seen.add(at);
  }
  return false;
}

/**
 * The nested pages: each parent's children in ours' order, then the pages whose place comes from
 * theirs put after their previous sibling in theirs (first when it is gone). Slugs made unique
 * again, as pages from both sides may now share a parent.
 */
function build(result: Map<string, { flat: Flat; theirsPlace: boolean }>): TreePage[] {
  const children = new Map<string, { flat: Flat; theirsPlace: boolean }[]>();
  for (const r of result.values()) children.set(r.flat.parent, [...(children.get(r.flat.parent) ?? []), r]);
  const make = (parent: string): TreePage[] => {
    const list = (children.get(parent) ?? []).sort((a, b) => a.flat.order - b.flat.order);
    const ordered = list.filter((r) => !r.theirsPlace).map((r) => r.flat);
    for (const r of list.filter((x) => x.theirsPlace)) {
      const index = r.flat.after ? ordered.findIndex((f) => f.page.id === r.flat.after) + 1 : 0;
      ordered.splice(index, 0, r.flat);
    }
    const pages: TreePage[] = [];
    for (const f of ordered) {
      const page: TreePage = { ...f.page, pages: make(f.page.id) };
      page.slug = uniqueSlug(page.slug, pages);
      pages.push(page);
    }
    return pages;
  };
  return make(ROOT);
}

function mergeFiles(base: TreeFile[], ours: TreeFile[], theirs: TreeFile[], conflict: (f: TreeFile, reason: string) => void): TreeFile[] {
  const [b, o, t] = [base, ours, theirs].map((list) => new Map(list.map((f) => [f.id, f])));
  const out: TreeFile[] = [];
  const ids = [...new Set([...ours.map((f) => f.id), ...theirs.map((f) => f.id), ...base.map((f) => f.id)])];
  for (const id of ids) {
    const [bf, of, tf] = [b!.get(id), o!.get(id), t!.get(id)];
    if (!bf) {
      if (of && tf && !same(of, tf)) conflict(of, 'added twice');
      else out.push((of ?? tf)!);
    } else if (!of || !tf) {
      const kept = of ?? tf;
      if (kept && !same(kept, bf)) conflict(kept, 'deleted and edited');
    } else {
      const r = pick(bf, of, tf);
      if (r === 'conflict') conflict(of, 'file');
      else out.push(r.value);
    }
  }
  return out;
}

function mergeVariables(base: Record<string, string>, ours: Record<string, string>, theirs: Record<string, string>, conflict: (key: string) => void) {
  const out: Record<string, string> = {};
  for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])) {
    const r = pick(base[key], ours[key], theirs[key]);
    if (r === 'conflict') conflict(key);
    else if (r.value !== undefined) out[key] = r.value;
  }
  return out;
}
