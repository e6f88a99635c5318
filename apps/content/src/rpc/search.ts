import type { SearchPage, SpaceContentServiceServer } from '@quire/proto/space-content';
import type { Handlers } from '@quire/service-kit';
import { allow } from '@quire/policy';
import { spaceRole } from '../domain/access.ts';
import { checkQuery, offsetPage, offsetPageOf, queryTerms, SECTIONS_PER_PAGE, snippet, snippetTerms } from '../domain/search.ts';
import { memberAccessIn, visibleSpace } from './deps.ts';
import type { RevisionDeps } from './revision-access.ts';
import { openApiSearch } from './search-openapi.ts';

type H = Pick<Handlers<SpaceContentServiceServer>, 'searchSpace' | 'searchOrganization'>;

export function searchHandlers(deps: RevisionDeps): H {
  const { store } = deps;
  const findOperations = openApiSearch(deps);

  /**
   * Pages of the spaces matching the query, ranked, each with its best matching sections; on the
   * first page, the API operations the query names (by path, summary or parameter) first.
   * `complete` when the same query finds the same until the spaces' content changes: every page
   * indexed, and no operation read from an organization's spec (which changes on its own).
   */
  async function search(spaceIds: string[], query: string, req: { page?: string; limit?: number } | undefined) {
    const { offset, limit } = offsetPage(req);
    const [text, found] = await Promise.all([searchText(spaceIds, query, req), offset === 0 ? findOperations(spaceIds, query) : { pages: [], fixed: true }]);
    const operations = found.pages;
    const complete = text.complete && found.fixed;
    if (!operations.length) return { ...text, complete };
    const key = (p: { spaceId: string; pageId: string }) => `${p.spaceId}/${p.pageId}`;
    const named = new Map(operations.map((op) => [key(op), op]));
    const byText = new Set(text.items.map(key));
    // A text section that is only an operation block's own line ("GET /pets") says less than the operation's.
    const withOperations = (p: SearchPage, op: SearchPage) => ({
      ...p,
      sections: [...op.sections, ...p.sections.filter((s) => !op.sections.some((o) => o.title === s.body.trim()))],
    });
    const items = text.items.map((p) => (named.has(key(p)) ? withOperations(p, named.get(key(p))!) : p));
    // Pages naming the operations first: those the text found too, then the others (a page's worth at most).
    const first = [...items.filter((p) => named.has(key(p))), ...operations.filter((op) => !byText.has(key(op))).slice(0, limit)];
    return { ...text, items: [...first, ...items.filter((p) => !named.has(key(p)))], complete };
  }

  /** Pages of the spaces whose text matches the query, ranked, each with its best matching sections. */
  async function searchText(spaceIds: string[], query: string, req: { page?: string; limit?: number } | undefined) {
    const { offset, limit } = offsetPage(req);
    if (spaceIds.length === 0) return { items: [], page: {}, complete: true };
    // Asked first: a page indexed meanwhile is found, never counted as missing from a complete answer.
    const [complete, tsquery] = await Promise.all([store.search.allIndexed(spaceIds), store.search.tsquery(query)]);
    if (tsquery === undefined) return { items: [], page: {}, complete };
    const { items, next } = offsetPageOf(await store.search.searchPages(spaceIds, tsquery, offset, limit + 1), offset, limit);
    const sections = await store.search.searchSections(items, tsquery, SECTIONS_PER_PAGE);
    const terms = snippetTerms(queryTerms(query));
    const byPage = new Map<string, SearchPage>(items.map((p) => [`${p.spaceId}/${p.pageId}`, { ...p, sections: [] }]));
    for (const s of sections) {
      const page = byPage.get(`${s.spaceId}/${s.pageId}`)!;
      // The text before the first heading is the page's own: it goes by the page's title.
      page.sections.push({ id: s.anchor, title: s.title || page.title, body: snippet(s.body, terms) });
    }
    return { items: [...byPage.values()], page: { next }, complete };
  }

  return {
    async searchSpace(req, ctx) {
      const query = checkQuery(req.query);
      const { space } = await visibleSpace(deps, req.spaceId, ctx);
      return search([space.id], query, req.page);
    },

    async searchOrganization(req, ctx) {
      const query = checkQuery(req.query);
      const access = await memberAccessIn(deps, req.organizationId, ctx);
      const spaces = await store.search.organizationSpaces(req.organizationId);
      return search(
        spaces.filter((s) => allow(spaceRole(access, s), 'view', 'space')).map((s) => s.id),
        query,
        req.page,
      );
    },
  };
}
