import type { RevisionPage } from '../types.ts';

// Moving pages in a change request's tree, as `update_page` changes: `into` the new parent (null:
// the top), `at` the index among its pages once the page left its old place. `into` left out keeps
// the parent (the API reorders only).

export type TreeMove = { into?: string | null; at?: number };
export type TreeAction = 'up' | 'down' | 'indent' | 'outdent';

interface Place {
  page: RevisionPage;
  parent?: RevisionPage;
  siblings: RevisionPage[];
  index: number;
}

/** Where a page sits: its parent (none at the top), its siblings and its index among them. */
export function locate(pages: RevisionPage[], id: string, parent?: RevisionPage): Place | undefined {
  for (const [index, page] of pages.entries()) {
    if (page.id === id) return { page, parent, siblings: pages, index };
    const inner = locate(page.pages ?? [], id, page);
    if (inner) return inner;
  }
  return undefined;
}

const holdsPages = (p: RevisionPage) => p.type === 'document' || p.type === 'group';
const contains = (page: RevisionPage, id: string): boolean => page.id === id || (page.pages ?? []).some((p) => contains(p, id));

/** The move a keyboard action makes, or undefined when it cannot apply (first page up, …). */
export function moveFor(pages: RevisionPage[], id: string, action: TreeAction): TreeMove | undefined {
  const at = locate(pages, id);
  if (!at) return undefined;
  const { page, parent, siblings, index } = at;
  switch (action) {
    case 'up':
      return index > 0 ? { at: index - 1 } : undefined;
    case 'down':
      return index < siblings.length - 1 ? { at: index + 1 } : undefined;
    case 'indent': {
      // Under the page above, at its end. Groups stay at the top.
      const above = siblings[index - 1];
      return above && holdsPages(above) && page.type !== 'group' ? { into: above.id } : undefined;
    }
    case 'outdent': {
      if (!parent) return undefined;
      const up = locate(pages, parent.id)!;
      return { into: up.parent?.id ?? null, at: up.index + 1 };
    }
  }
}

/** The move that puts `id` just before `target` (drag and drop), or undefined when it cannot go there. */
export function moveBefore(pages: RevisionPage[], id: string, target: string): TreeMove | undefined {
  const from = locate(pages, id);
  const to = locate(pages, target);
  if (!from || !to || id === target || contains(from.page, target)) return undefined;
  if (from.page.type === 'group' && to.parent) return undefined;
  // Leaving a place before the target among the same pages moves the target's index up by one.
  const shift = from.siblings === to.siblings && from.index < to.index ? 1 : 0;
  if (from.siblings === to.siblings && to.index - shift === from.index) return undefined;
  return { into: to.parent?.id ?? null, at: to.index - shift };
}

/** The move that puts `id` at the end of `target`'s pages (dropped onto it), or undefined when it cannot. */
export function moveInto(pages: RevisionPage[], id: string, target: string): TreeMove | undefined {
  const from = locate(pages, id);
  const to = locate(pages, target);
  if (!from || !to || contains(from.page, target) || !holdsPages(to.page) || from.page.type === 'group') return undefined;
  if (from.parent?.id === target) return undefined;
  return { into: target };
}
