import { useState } from 'react';
import { useLocation } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../../api.ts';
import { useAction } from '../../components/actions.tsx';
import { useCopy } from '../../components/copy.ts';
import { DangerZone } from '../../components/DangerZone.tsx';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { Field, SelectField } from '../../components/Field.tsx';
import { InlineForm } from '../../components/InlineForm.tsx';
import { MutationStatus } from '../../components/MutationStatus.tsx';
import { QueryState } from '../../components/states.tsx';
import { paths } from '../../paths.ts';
import type { ShareLink, SiteVisibility } from '../../types.ts';
import type { SiteProps } from '../Site.tsx';
import { AiAssistants } from './AiAssistants.tsx';

const VISIBILITIES: [SiteVisibility, string][] = [
  ['public', 'Public, indexed by search engines'],
  ['unlisted', 'Public, not indexed'],
  ['share-link', 'Anyone with a share link'],
  ['visitor-auth', 'Visitors signed in by a JWT'],
];

/** Who can read the site (its visibility and share links), how AI assistants reach it, its title, and deleting it. */
export function Publishing({ org, site }: SiteProps) {
  const base = `/orgs/${org}/sites/${site.id}`;
  const act = useAction(['site', 'sites', 'share-links']);
  const [title, setTitle] = useState(site.title);
  const [, navigate] = useLocation();
  return (
    <section aria-label="Publishing">
      <InlineForm submit="Rename" onSubmit={() => title.trim() !== site.title && act.mutate(() => api.patch(base, { title: title.trim() }))}>
        <Field label="Site title" bind={[title, setTitle]} minLength={2} maxLength={128} required />
      </InlineForm>
      <SelectField label="Audience" value={site.visibility} onChange={(e) => act.mutate(() => api.patch(base, { visibility: e.target.value }))} options={VISIBILITIES} />
      <MutationStatus of={act} />
      <ShareLinks base={base} active={site.visibility === 'share-link'} />
      <AiAssistants site={site} />
      <DangerZone
        title="Delete this site"
        action="Delete site"
        onClick={() => confirm(`Delete the site “${site.title}” with its sections and share links?`) && act.mutate(() => api.delete(base).then(() => navigate(paths.sites(org))))}
      />
    </section>
  );
}

function ShareLinks({ base, active }: { base: string; active: boolean }) {
  const links = useQuery({ queryKey: ['share-links', base], queryFn: () => all<ShareLink>(`${base}/share-links`) });
  const act = useAction(['share-links']);
  const [name, setName] = useState('');
  const { copied, copy } = useCopy();
  return (
    <section aria-labelledby="share-links">
      <h2 id="share-links">Share links</h2>
      {!active && <p className="muted small">Share links open the site only while its audience is “Anyone with a share link”.</p>}
      <InlineForm submit="New share link" onSubmit={() => name.trim() && act.mutate(() => api.post(`${base}/share-links`, { name: name.trim() }).then(() => setName('')))}>
        <Field label="Share link name" hideLabel bind={[name, setName]} placeholder="Who is it for?" maxLength={50} required />
      </InlineForm>
      <MutationStatus of={act} />
      <QueryState query={links} loading="Loading share links" failed="Could not load the share links" empty={links.data?.length === 0 && 'No share links'} />
      <ul className="plain">
        {links.data?.map((l) => (
          <li key={l.id} className="inline">
            <span className="grow">
              {l.name} <span className="status">{l.active ? 'active' : 'inactive'}</span> <code className="small">{l.urls.published}</code>
            </span>
            <button type="button" className="btn small" aria-label={`Copy share link ${l.name}`} onClick={() => void copy(l.id, l.urls.published)}>
              Copy
            </button>
            <button
              type="button"
              className="btn small"
              aria-label={`${l.active ? 'Deactivate' : 'Activate'} share link ${l.name}`}
              onClick={() => act.mutate(() => api.patch(`${base}/share-links/${l.id}`, { active: !l.active }))}
            >
              {l.active ? 'Deactivate' : 'Activate'}
            </button>
            <DeleteButton label={`Delete share link ${l.name}`} onClick={() => act.mutate(() => api.delete(`${base}/share-links/${l.id}`))} />
          </li>
        ))}
      </ul>
      {copied && (
        <p role="status" className="muted small">
          Copied the link “{links.data?.find((l) => l.id === copied)?.name}” to the clipboard.
        </p>
      )}
    </section>
  );
}
