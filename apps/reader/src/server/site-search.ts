import type { SiteSection, SiteSpace, SiteStructure } from '@quire/proto/sites';
import type { SearchPage } from '@quire/proto/space-content';
import { listed } from '../domain/pages.ts';
import { allSiteSpaces, siteSpacePrefix } from '../domain/structure.ts';
import type { SiteData } from './site-data.ts';

// One reading of a site's search, for its search box and its MCP server alike: each of its spaces
// searched at its published revision, hidden pages left out as they are of navigation.

/** A query's characters, at most. */
export const MAX_QUERY = 256;
/** Spaces of a site searched, at most. */
const MAX_SEARCH_SPACES = 20;
/** Pages answered, at most. */
export const MAX_RESULTS = 20;

export interface SiteHit {
  page: SearchPage;
  section?: SiteSection;
  siteSpace: SiteSpace;
  /** The site space's path below the site. */
  prefix: string[];
}

/** The pages found, best first within each space; `spaces` is how many were searched. */
export async function searchSite(data: SiteData, structure: SiteStructure, query: string, requestId: string): Promise<{ spaces: number; hits: SiteHit[] }> {
  const spaces = allSiteSpaces(structure).slice(0, MAX_SEARCH_SPACES);
  const found = await Promise.all(
    spaces.map(async ({ section, siteSpace }) => {
      const revision = await data.revision(siteSpace.spaceId, requestId);
      const items = await data.search(siteSpace.spaceId, revision.id, query, requestId);
      const prefix = siteSpacePrefix(section, siteSpace);
      return items.filter((p) => listed(revision.pages, p.pageId)).map((page): SiteHit => ({ page, ...(section ? { section } : {}), siteSpace, prefix }));
    }),
  );
  return { spaces: spaces.length, hits: found.flat().slice(0, MAX_RESULTS) };
}
