import { pathIn } from '../../domain/address.ts';
import { place } from '../../domain/structure.ts';
import { searchPage } from '../../presenters/views/page.ts';
import { html, notFound } from '../respond.ts';
import type { SiteData } from '../site-data.ts';
import { MAX_QUERY, searchSite } from '../site-search.ts';
import type { Track } from '../tracking.ts';
import type { SiteRoute, Visit } from '../visit.ts';
import type { pages } from './pages.ts';

/** The site's search: a page, or the results as JSON for the search box. */
export function searchRoutes(data: SiteData, track: Track, { spaceOf, metaOf }: ReturnType<typeof pages>): Record<string, SiteRoute> {
  async function search(v: Visit, query: string) {
    const { spaces, hits } = await searchSite(data, v.view.structure!, query, v.req.id);
    track(v, 'search_type_query', {}, { query: query.slice(0, 512) });
    return hits.map(({ page: p, section, siteSpace, prefix }) => ({
      title: p.title,
      url: `${pathIn(v.at.base, [...prefix, ...p.path.split('/')])}${p.sections[0]?.id ? `#${p.sections[0].id}` : ''}`,
      section: spaces > 1 ? (section ? `${section.title} › ${siteSpace.title}` : siteSpace.title) : p.sections[0]?.title || undefined,
    }));
  }

  return {
    '~search': async (v) => {
      const raw = (v.req.query as Record<string, unknown>).q;
      const query = typeof raw === 'string' ? raw.trim().slice(0, MAX_QUERY) : '';
      const results = query ? await search(v, query) : undefined;
      if ((v.req.headers.accept ?? '').includes('application/json')) return v.reply.header('cache-control', 'no-store').send({ items: results ?? [] });
      const placement = place(v.view.structure!, []);
      if (!placement) return notFound(v.reply, 'This site has no content yet.');
      const { chrome } = await spaceOf(v, placement);
      return html(v.reply, 200, searchPage({ ...metaOf(v, 'Search', `${v.at.base}/~search`), noindex: true }, chrome, query, results));
    },
  };
}
