import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { all, api, type List } from '../../api.ts';
import { Field, SelectField, useFields } from '../../components/Field.tsx';
import { InlineForm } from '../../components/InlineForm.tsx';
import { ListTable } from '../../components/ListTable.tsx';
import { LoadMoreButton } from '../../components/LoadMoreButton.tsx';
import { QueryState } from '../../components/states.tsx';
import type { AuditEntry, Member } from '../../types.ts';

/** `datetime-local` (the browser's time zone) as the API's ISO timestamp. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** What was done in the organization, by whom, newest first, filtered by who, what and when. */
export function AuditLog({ org }: { org: string }) {
  const members = useQuery({ queryKey: ['members', org], queryFn: () => all<Member>(`/orgs/${org}/members`) });
  const [filters, set] = useFields({ actor: '', action: '', from: '', to: '' });
  const [asked, setAsked] = useState(filters);
  const log = useInfiniteQuery({
    queryKey: ['audit', org, asked],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api.get<List<AuditEntry>>(`/orgs/${org}/audit-log`, {
        limit: 50,
        page: pageParam,
        actor: asked.actor || undefined,
        action: asked.action.trim() || undefined,
        from: isoOf(asked.from),
        to: isoOf(asked.to),
      }),
    getNextPageParam: (last) => last.next?.page,
  });
  const names = new Map(members.data?.map((m) => [m.user.id, m.user.displayName]));
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-label="Audit log">
      <InlineForm submit="Filter" className="inline wrap" onSubmit={() => setAsked(filters)}>
        <SelectField label="Who" value={filters.actor} onChange={set('actor')} options={members.data?.map((m) => [m.user.id, m.user.displayName] as const) ?? []}>
          <option value="">Anyone</option>
        </SelectField>
        <Field label="Action" value={filters.action} onChange={set('action')} placeholder="member.role_changed" maxLength={128} />
        <Field label="From" type="datetime-local" value={filters.from} onChange={set('from')} />
        <Field label="Until" type="datetime-local" value={filters.to} onChange={set('to')} />
      </InlineForm>
      <QueryState query={log} loading="Loading the audit log" failed="Could not load the audit log" empty={log.data && entries.length === 0 && 'No entries'} />
      <ListTable caption="Audit log, newest first" columns={['When', 'Who', 'Action', 'Target', 'Address']} items={entries}>
        {(e) => (
          <tr key={e.id}>
            <td>
              <time dateTime={e.createdAt}>{new Date(e.createdAt).toLocaleString()}</time>
            </td>
            <td>{e.actor ? (names.get(e.actor) ?? e.actor) : 'anonymous'}</td>
            <td>
              <code>{e.action}</code>
            </td>
            <td>{e.target ? `${e.target.type} ${e.target.id}` : ''}</td>
            <td>{e.ip ?? ''}</td>
          </tr>
        )}
      </ListTable>
      <LoadMoreButton query={log} label="Older entries" />
    </section>
  );
}
