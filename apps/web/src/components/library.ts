import type { Collection, Space } from '../types.ts';

export interface LibraryNode {
  kind: 'collection' | 'space';
  id: string;
  title: string;
  emoji?: string;
  /** The caller may rename, move and delete it. */
  admin: boolean;
  children: LibraryNode[];
}

/** Collections and spaces as one tree by `parent`; collections first, then spaces, each by title. Items whose parent is not visible stay at the top. */
export function buildLibrary(collections: Collection[], spaces: Space[]): LibraryNode[] {
  const nodes = new Map<string, LibraryNode>();
  for (const c of collections) nodes.set(c.id, { kind: 'collection', id: c.id, title: c.title, admin: c.permissions?.admin === true, children: [] });
  const roots: LibraryNode[] = [];
  const place = (node: LibraryNode, parent: string | undefined) => {
    const p = parent === undefined ? undefined : nodes.get(parent);
    (p && p !== node ? p.children : roots).push(node);
  };
  for (const c of collections) place(nodes.get(c.id)!, c.parent);
  for (const s of spaces)
    if (!s.deletedAt) place({ kind: 'space', id: s.id, title: s.title || 'Untitled', emoji: s.emoji || undefined, admin: s.permissions?.admin === true, children: [] }, s.parent);
  const sort = (list: LibraryNode[]) => {
    list.sort((a, b) => (a.kind === b.kind ? a.title.localeCompare(b.title) : a.kind === 'collection' ? -1 : 1));
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}
