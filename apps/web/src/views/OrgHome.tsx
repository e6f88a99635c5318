import { useState } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api.ts';
import { useLibrary } from '../components/Sidebar.tsx';
import { DeleteButton } from '../components/DeleteButton.tsx';
import { Field } from '../components/Field.tsx';
import { InlineForm } from '../components/InlineForm.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { EmptyState, ErrorState, Progress } from '../components/states.tsx';
import type { LibraryNode } from '../components/library.ts';
import { paths } from '../paths.ts';
import type { Collection, Organization, Space } from '../types.ts';

/** The library (or one collection of it): create, rename, delete (with undo) collections and spaces. */
export function OrgHome({ org, collection }: { org: string; collection?: string }) {
  const { tree, collections, spaces } = useLibrary(org);
  // Only members who may create content see the forms (readers and commenters do not).
  const canCreate = useQuery({ queryKey: ['org', org], queryFn: () => api.get<Organization>(`/orgs/${org}`) }).data?.permissions?.createContent === true;
  const client = useQueryClient();
  const [deleted, setDeleted] = useState<{ kind: LibraryNode['kind']; id: string; title: string }>();
  const refresh = () => client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'collections' || q.queryKey[0] === 'spaces' });
  const act = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSettled: refresh });

  if (collections.error || spaces.error) return <ErrorState title="Could not load the library" message={(collections.error ?? spaces.error)!.message} />;
  if (!tree) return <Progress label="Loading the library" />;
  const here = collection ? findNode(tree, collection) : undefined;
  if (collection && !here) return <ErrorState title="Collection not found" message="It was deleted, or you cannot see it." />;
  const items = here ? here.children : tree;
  const base = (kind: LibraryNode['kind']) => (kind === 'space' ? 'spaces' : 'collections');

  return (
    <div className="page">
      <h1>{here ? here.title : 'Library'}</h1>
      {canCreate && (
        <div className="row">
          <CreateForm
            label="New space"
            onCreate={(title) => act.mutateAsync(() => api.post<Space>(`/orgs/${org}/spaces`, { title, ...(collection ? { parent: collection } : {}) }))}
          />
          <CreateForm
            label="New collection"
            onCreate={(title) => act.mutateAsync(() => api.post<Collection>(`/orgs/${org}/collections`, { title, ...(collection ? { parent: collection } : {}) }))}
          />
        </div>
      )}
      <MutationStatus of={act} />
      {deleted && (
        <p role="status" className="notice">
          “{deleted.title}” was deleted.{' '}
          {deleted.kind === 'space' && (
            <button type="button" className="btn" onClick={() => act.mutate(() => api.post(`/spaces/${deleted.id}/restore`).then(() => setDeleted(undefined)))}>
              Undo
            </button>
          )}
        </p>
      )}
      {items.length === 0 ? (
        <EmptyState title="Nothing here yet">
          <p>Create a space to start writing.</p>
        </EmptyState>
      ) : (
        <ul className="cards" aria-label={here ? `Contents of ${here.title}` : 'Library'}>
          {items.map((n) => (
            <li key={n.id} className="card">
              <Link href={n.kind === 'space' ? paths.space(org, n.id) : paths.collection(org, n.id)}>
                <span aria-hidden="true">{n.kind === 'collection' ? '▸ ' : (n.emoji ?? '') + ' '}</span>
                {n.title}
              </Link>
              <span className="muted small">{n.kind}</span>
              {n.admin && (
                <div className="actions">
                  <button
                    type="button"
                    className="btn small"
                    aria-label={`Rename ${n.title}`}
                    onClick={() => {
                      const title = prompt(`New name of “${n.title}”`, n.title)?.trim();
                      if (title && title !== n.title) act.mutate(() => api.patch(`/${base(n.kind)}/${n.id}`, { title }));
                    }}
                  >
                    Rename
                  </button>
                  <DeleteButton
                    label={`Delete ${n.title}`}
                    ask={`Delete “${n.title}”? Spaces can be restored for 7 days.`}
                    onClick={() => act.mutate(() => api.delete(`/${base(n.kind)}/${n.id}`).then(() => setDeleted({ kind: n.kind, id: n.id, title: n.title })))}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function findNode(nodes: LibraryNode[], id: string): LibraryNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const found = findNode(n.children, id);
    if (found) return found;
  }
  return undefined;
}

function CreateForm({ label, onCreate }: { label: string; onCreate: (title: string) => Promise<unknown> }) {
  const [title, setTitle] = useState('');
  const submit = () => {
    if (!title.trim()) return;
    void onCreate(title.trim()).then(
      () => setTitle(''),
      () => undefined,
    );
  };
  return (
    <InlineForm submit={label} onSubmit={submit}>
      <Field label={`${label} title`} hideLabel bind={[title, setTitle]} placeholder={`${label} title`} maxLength={50} />
    </InlineForm>
  );
}
