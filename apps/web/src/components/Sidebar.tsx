import { useState, type DragEvent } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { paths } from '../paths.ts';
import type { Collection, Space } from '../types.ts';
import { buildLibrary, type LibraryNode } from './library.ts';
import { Progress } from './states.tsx';

const DRAG_TYPE = 'application/x-quire-item';

export function useLibrary(org: string) {
  const collections = useQuery({ queryKey: ['collections', org], queryFn: () => all<Collection>(`/orgs/${org}/collections`) });
  const spaces = useQuery({ queryKey: ['spaces', org], queryFn: () => all<Space>(`/orgs/${org}/spaces`) });
  return { collections, spaces, tree: collections.data && spaces.data ? buildLibrary(collections.data, spaces.data) : undefined };
}

/** The organization's collections and spaces; drag an item onto a collection (or the top) to move it. */
export function Sidebar({ org, current }: { org: string; current?: string }) {
  const { tree, collections, spaces } = useLibrary(org);
  const client = useQueryClient();
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: ({ kind, id, parent }: { kind: 'space' | 'collection'; id: string; parent: string | null }) =>
      api.post(`/${kind === 'space' ? 'spaces' : 'collections'}/${id}/move`, { parent }),
    onSettled: () => client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'collections' || q.queryKey[0] === 'spaces' }),
  });

  const dropProps = (parent: string | null) => ({
    onDragOver: (e: DragEvent) => {
      if (e.dataTransfer.types.includes(DRAG_TYPE)) {
        e.preventDefault();
        setDropTarget(parent ?? '');
      }
    },
    onDragLeave: () => setDropTarget(null),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDropTarget(null);
      const item = JSON.parse(e.dataTransfer.getData(DRAG_TYPE)) as { kind: 'space' | 'collection'; id: string };
      if (item.id !== parent) move.mutate({ ...item, parent });
    },
  });

  const render = (nodes: LibraryNode[]) => (
    <ul>
      {nodes.map((n) => (
        <li key={n.id}>
          <Link
            href={n.kind === 'space' ? paths.space(org, n.id) : paths.collection(org, n.id)}
            draggable={n.admin}
            onDragStart={(e: DragEvent) => e.dataTransfer.setData(DRAG_TYPE, JSON.stringify({ kind: n.kind, id: n.id }))}
            aria-current={n.id === current ? 'page' : undefined}
            className={n.kind}
            {...(n.kind === 'collection' ? dropProps(n.id) : {})}
            data-drop={dropTarget === n.id ? 'over' : undefined}
          >
            <span aria-hidden="true">{n.kind === 'collection' ? '▸ ' : (n.emoji ?? '') + ' '}</span>
            {n.title}
          </Link>
          {n.children.length > 0 && render(n.children)}
        </li>
      ))}
    </ul>
  );

  return (
    <nav className="sidebar" aria-label="Library">
      <div className="sidebar-head" {...dropProps(null)} data-drop={dropTarget === '' ? 'over' : undefined}>
        <Link href={paths.org(org)}>Library</Link>
      </div>
      {(collections.isPending || spaces.isPending) && <Progress label="Loading the library" />}
      {move.isPending && <Progress label="Moving" />}
      {move.error && <p role="alert">{move.error.message}</p>}
      {tree && (tree.length ? render(tree) : <p className="muted">No spaces yet.</p>)}
    </nav>
  );
}
