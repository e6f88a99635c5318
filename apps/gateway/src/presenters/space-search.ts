import type { SearchPage } from '@quire/proto/space-content';
import type { SearchPageJson, SearchSpaceJson } from '../schemas/space-search.ts';
import type { Urls } from './urls.ts';

export function presentSearchPage(p: SearchPage, urls: Urls): SearchPageJson {
  const app = urls.app(`/s/${p.spaceId}/${p.path}`);
  return {
    id: p.pageId,
    title: p.title,
    path: p.path,
    sections: p.sections.map((s) => ({ id: s.id, title: s.title, path: p.path, body: s.body, urls: { app: s.id ? `${app}#${encodeURIComponent(s.id)}` : app } })),
    urls: { app },
  };
}

/**
 * Pages found across an organization, grouped by space in the order of each space's best page
 * (the pages are ranked across spaces; a space's pages keep their rank order).
 */
export function groupBySpace(pages: SearchPage[], titles: ReadonlyMap<string, string>, urls: Urls): SearchSpaceJson[] {
  const spaces = new Map<string, SearchSpaceJson>();
  for (const p of pages) {
    let space = spaces.get(p.spaceId);
    if (!space) spaces.set(p.spaceId, (space = { id: p.spaceId, title: titles.get(p.spaceId) ?? '', pages: [] }));
    space.pages.push(presentSearchPage(p, urls));
  }
  return [...spaces.values()];
}
