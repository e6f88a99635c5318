import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, type List } from '../../api.ts';
import { Field } from '../../components/Field.tsx';
import { InlineForm } from '../../components/InlineForm.tsx';
import { QueryState } from '../../components/states.tsx';
import type { Integration } from '../../types.ts';

/** The integrations the organization published, searched by name. */
export function Integrations({ org }: { org: string }) {
  const [search, setSearch] = useState('');
  const [asked, setAsked] = useState('');
  const list = useQuery({
    queryKey: ['integrations', org, asked],
    queryFn: () => api.get<List<Integration>>('/integrations', { owner: org, limit: 100, ...(asked ? { search: asked } : {}) }),
  });
  return (
    <section aria-label="Integrations">
      <InlineForm submit="Search" role="search" onSubmit={() => setAsked(search.trim())}>
        <Field label="Search integrations" hideLabel type="search" bind={[search, setSearch]} placeholder="Name" maxLength={100} />
      </InlineForm>
      <p className="muted small">
        Integrations are published with the API (`POST /v1/integrations/{'{name}'}`); installing one on the organization, a space or a site is not in the API yet.
      </p>
      <QueryState query={list} loading="Loading integrations" failed="Could not load the integrations" empty={list.data?.items.length === 0 && 'No integrations'} />
      <ul className="cards">
        {list.data?.items.map((i) => (
          <li key={i.name} className="card">
            <strong>
              {i.title} {i.verified && <span className="status">verified</span>}
            </strong>
            <span className="small muted">{i.name}</span>
            <span>{i.description}</span>
            {i.categories.length > 0 && <span className="small muted">{i.categories.join(', ')}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
