import { useState } from 'react';
import '../admin.css';
import { Link, useLocation } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { useAction } from '../components/actions.tsx';
import { Field } from '../components/Field.tsx';
import { InlineForm } from '../components/InlineForm.tsx';
import { ListTable } from '../components/ListTable.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { QueryState } from '../components/states.tsx';
import { paths } from '../paths.ts';
import type { Organization } from '../types.ts';
import type { Site } from '../types.ts';

/** The organization's published sites: the list, and a new one (members who may create content). */
export default function SitesView({ org }: { org: string }) {
  const sites = useQuery({ queryKey: ['sites', org], queryFn: () => all<Site>(`/orgs/${org}/sites`) });
  const organization = useQuery({ queryKey: ['org', org], queryFn: () => api.get<Organization>(`/orgs/${org}`) });
  const act = useAction(['sites']);
  const [title, setTitle] = useState('');
  const [, navigate] = useLocation();
  const canCreate = organization.data?.permissions?.createContent === true;
  const create = () => {
    const t = title.trim();
    if (t.length >= 2) act.mutate(() => api.post<Site>(`/orgs/${org}/sites`, { title: t }).then((s) => navigate(paths.siteTab(org, s.id, 'structure'))));
  };
  return (
    <div className="page">
      <h1>Sites</h1>
      {canCreate && (
        <InlineForm submit="New site" buttonClass="btn primary" onSubmit={create}>
          <Field label="New site title" hideLabel bind={[title, setTitle]} placeholder="Site title" minLength={2} maxLength={128} required />
        </InlineForm>
      )}
      <MutationStatus of={act} label="Creating the site" />
      <QueryState query={sites} loading="Loading sites" failed="Could not load the sites" empty={sites.data?.length === 0 && 'No sites yet'} />
      <ListTable caption="Sites" columns={['Site', 'State', 'Audience', 'Spaces']} items={sites.data}>
        {(s) => (
          <tr key={s.id}>
            <td>
              <Link href={paths.siteTab(org, s.id, 'structure')}>{s.title}</Link>
            </td>
            <td>
              <span className="status">{s.published ? 'published' : 'not published'}</span>
            </td>
            <td>{s.visibility}</td>
            <td>{s.siteSpaces}</td>
          </tr>
        )}
      </ListTable>
    </div>
  );
}
