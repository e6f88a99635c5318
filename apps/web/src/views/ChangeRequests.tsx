import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, type List } from '../api.ts';
import { Field } from '../components/Field.tsx';
import { InlineForm } from '../components/InlineForm.tsx';
import { ListTable } from '../components/ListTable.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { QueryState } from '../components/states.tsx';
import { paths } from '../paths.ts';
import type { ChangeRequest, Space } from '../types.ts';

/** A space's change requests; editing starts here: in a new one, or in one still open. */
export default function ChangeRequestsView({ space }: { space: Space }) {
  const [status, setStatus] = useState<'open' | 'draft' | 'merged' | 'archived'>('open');
  const editPath = new URLSearchParams(useSearch()).get('edit');
  const [, navigate] = useLocation();
  const [subject, setSubject] = useState('');
  const list = useQuery({
    queryKey: ['crs', space.id, status],
    queryFn: () => api.get<List<ChangeRequest>>(`/spaces/${space.id}/change-requests`, { status, limit: 100 }),
  });
  const create = useMutation({
    mutationFn: () => api.post<ChangeRequest>(`/spaces/${space.id}/change-requests`, subject.trim() ? { subject: subject.trim() } : {}),
    onSuccess: (cr) => navigate(paths.edit(space.organization, space.id, cr.number, editPath ?? '')),
  });
  const open = (cr: ChangeRequest) =>
    editPath !== null ? paths.edit(space.organization, space.id, cr.number, editPath) : paths.changeRequest(space.organization, space.id, cr.number);

  return (
    <div className="page">
      <p className="small">
        <Link href={paths.space(space.organization, space.id)}>← {space.title}</Link>
      </p>
      <h1>Change requests</h1>
      {space.permissions.edit && (
        <InlineForm submit="New change request" buttonClass="btn primary" disabled={create.isPending} onSubmit={() => create.mutate()}>
          <Field label="Subject of the new change request" hideLabel bind={[subject, setSubject]} placeholder="What will you change?" maxLength={100} />
        </InlineForm>
      )}
      <MutationStatus of={create} label="Opening a change request" />
      {editPath !== null && <p className="muted">Edits happen in a change request: start a new one, or continue in an open one below.</p>}
      <label>
        Status{' '}
        <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="open">Open</option>
          <option value="draft">Draft</option>
          <option value="merged">Merged</option>
          <option value="archived">Archived</option>
        </select>
      </label>
      <QueryState query={list} loading="Loading change requests" failed="Could not load change requests" empty={list.data?.items.length === 0 && `No ${status} change requests`} />
      <ListTable caption={`Change requests of ${space.title}`} columns={['#', 'Subject', 'Author', 'Status']} items={list.data?.items}>
        {(cr) => (
          <tr key={cr.id}>
            <td>{cr.number}</td>
            <td>
              <Link href={open(cr)}>{cr.subject || 'Untitled change request'}</Link>
            </td>
            <td>{cr.createdBy.displayName}</td>
            <td>
              <span className="status">{cr.status}</span>
              {cr.outdated && <span className="status">outdated</span>}
            </td>
          </tr>
        )}
      </ListTable>
    </div>
  );
}
