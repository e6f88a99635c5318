import { Link } from 'wouter';
import '../admin.css';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { useAction } from '../components/actions.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { ErrorState, Progress } from '../components/states.tsx';
import { TabNav } from '../components/TabNav.tsx';
import { paths } from '../paths.ts';
import type { Site } from '../types.ts';
import { Adaptive } from './site/Adaptive.tsx';
import { Customization } from './site/Customization.tsx';
import { Insights } from './site/Insights.tsx';
import { Publishing } from './site/Publishing.tsx';
import { Structure } from './site/Structure.tsx';

const TABS = [
  ['structure', 'Structure'],
  ['sharing', 'Publishing'],
  ['adaptive', 'Adaptive content'],
  ['customization', 'Customization'],
  ['insights', 'Insights'],
] as const;

export type SiteProps = { org: string; site: Site };

/** One site: its structure, publishing and share links, adaptive schema, customization and insights. */
export default function SiteView({ org, siteId, tab }: { org: string; siteId: string; tab: string }) {
  const site = useQuery({ queryKey: ['site', siteId], queryFn: () => api.get<Site>(`/orgs/${org}/sites/${siteId}`) });
  const act = useAction(['site', 'sites']);
  if (site.isPending) return <Progress label="Loading the site" />;
  if (site.error) return <ErrorState title="Site not available" message={site.error.message} />;
  const s = site.data;
  return (
    <div className="page wide">
      <p className="small">
        <Link href={paths.sites(org)}>Sites</Link>
      </p>
      <div className="row">
        <h1 className="grow">{s.title}</h1>
        <span className="status">{s.published ? 'published' : 'not published'}</span>
        {s.published && s.urls.published && (
          <a className="btn" href={s.urls.published} target="_blank" rel="noreferrer">
            Open the published site
          </a>
        )}
        <button
          type="button"
          className={`btn ${s.published ? '' : 'primary'}`}
          onClick={() => act.mutate(() => api.post(`/orgs/${org}/sites/${s.id}/${s.published ? 'unpublish' : 'publish'}`))}
        >
          {s.published ? 'Unpublish' : 'Publish'}
        </button>
      </div>
      <MutationStatus of={act} label={s.published ? 'Unpublishing' : 'Publishing'} />
      <TabNav label="Site" tabs={TABS} current={tab} href={(id) => paths.siteTab(org, s.id, id)} />
      {tab === 'structure' && <Structure org={org} site={s} />}
      {tab === 'sharing' && <Publishing org={org} site={s} />}
      {tab === 'adaptive' && <Adaptive org={org} site={s} />}
      {tab === 'customization' && <Customization org={org} site={s} />}
      {tab === 'insights' && <Insights org={org} site={s} />}
      {!TABS.some(([id]) => id === tab) && <ErrorState title="No such view of a site" />}
    </div>
  );
}
