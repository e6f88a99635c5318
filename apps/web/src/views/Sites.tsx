import { useState } from 'react';
import '../admin.css';
import { Link, useLocation } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { ActionState, useAction } from '../components/actions.tsx';
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
  return (
    <div className="page">
      <h1>Sites</h1>
      {canCreate && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const t = title.trim();
            if (t.length >= 2) act.mutate(() => api.post<Site>(`/orgs/${org}/sites`, { title: t }).then((s) => navigate(paths.siteTab(org, s.id, 'structure'))));
          }}
        >
          <label>
            <span className="visually-hidden">New site title</span>
            <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Site title" minLength={2} maxLength={128} required />
          </label>
          <button type="submit" className="btn primary">
            New site
          </button>
        </form>
      )}
      <ActionState action={act} label="Creating the site" />
      <QueryState query={sites} loading="Loading sites" failed="Could not load the sites" empty={sites.data?.length === 0 && 'No sites yet'} />
      {sites.data && sites.data.length > 0 && (
        <table className="list">
          <caption className="visually-hidden">Sites</caption>
          <thead>
            <tr>
              <th scope="col">Site</th>
              <th scope="col">State</th>
              <th scope="col">Audience</th>
              <th scope="col">Spaces</th>
            </tr>
          </thead>
          <tbody>
            {sites.data.map((s) => (
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
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
