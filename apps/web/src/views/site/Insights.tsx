import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { BarList, LineChart } from '../../components/charts.tsx';
import { SelectField } from '../../components/Field.tsx';
import { ErrorState, Progress } from '../../components/states.tsx';
import {
  AUDIENCES,
  dailySeries,
  RANGES,
  rows,
  searchesQuery,
  topPagesQuery,
  unansweredQuery,
  urlLabel,
  visitsQuery,
  type Aggregate,
  type Audience,
  type Range,
} from '../../lib/insights.ts';
import type { SiteProps } from '../Site.tsx';

/**
 * Visits over time, the most viewed pages and the searches of a site, from the aggregate API:
 * everyone's, visitors' or AI assistants'; and the assistants' searches that found nothing.
 */
export function Insights({ org, site }: SiteProps) {
  const [range, setRange] = useState<Range>('last30Days');
  const [audience, setAudience] = useState<Audience>('all');
  const path = `/orgs/${org}/sites/${site.id}/insights/events/aggregate`;
  const ask = (name: string, body: object) => ({ queryKey: ['insights', site.id, name, range, audience], queryFn: () => api.post<Aggregate>(path, body) });
  const visits = useQuery(ask('visits', visitsQuery(range, audience)));
  const pages = useQuery(ask('pages', topPagesQuery(range, audience)));
  const searches = useQuery(ask('searches', searchesQuery(range, audience)));
  // Only an assistant's search says whether it found anything: not asked for visitors alone.
  const unanswered = useQuery({
    queryKey: ['insights', site.id, 'unanswered', range],
    queryFn: () => api.post<Aggregate>(path, unansweredQuery(range)),
    enabled: audience !== 'web',
  });
  const failed = visits.error ?? pages.error ?? searches.error ?? unanswered.error;
  return (
    <section aria-label="Insights">
      <SelectField label="Period" value={range} onChange={(e) => setRange(e.target.value as Range)} options={RANGES} />
      <SelectField label="Audience" value={audience} onChange={(e) => setAudience(e.target.value as Audience)} options={AUDIENCES} />
      {(visits.isPending || pages.isPending || searches.isPending) && <Progress label="Loading insights" />}
      {failed && <ErrorState title="Could not load the insights" message={failed.message} />}
      {visits.data && (
        <>
          <h2>Visitors per day</h2>
          <LineChart label="Visitors per day" points={dailySeries(visits.data, range, new Date()).map((p) => ({ x: p.day, y: p.value }))} />
        </>
      )}
      {pages.data && (
        <>
          <h2>Top pages</h2>
          <BarList
            label="Page views per page"
            empty="No page views in this period."
            bars={rows(pages.data).map((r) => ({ label: urlLabel(r.url), value: Number(r.eventsCount) }))}
          />
        </>
      )}
      {searches.data && (
        <>
          <h2>Searches</h2>
          <BarList
            label="Searches per query"
            empty="No searches in this period."
            bars={rows(searches.data).map((r) => ({ label: String(r.eventSearchQuery), value: Number(r.eventsCount) }))}
          />
        </>
      )}
      {audience !== 'web' && unanswered.data && (
        <>
          <h2>AI assistants&apos; searches that found nothing</h2>
          <BarList
            label="Searches through the MCP server that found nothing, per query"
            empty="Every search of an AI assistant found something in this period."
            bars={rows(unanswered.data).map((r) => ({ label: String(r.eventSearchQuery), value: Number(r.eventsCount) }))}
          />
        </>
      )}
    </section>
  );
}
