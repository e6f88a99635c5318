// Search and link reads: the pages and sections matching a query, documents' links and headings.
import type { JSONDocument } from '@quire/document';
import type { Logger } from '@quire/service-kit';
import type { Level } from '../domain/access.ts';
import type { HeadingRow } from '../domain/links.ts';
import { SEARCH_LANGUAGES, searchText, type SearchQuery } from '../domain/search.ts';
import { analyzeStored, sqlOn, type StoredDocument } from './search-documents.ts';
import { reindexSearch, startIndexer } from './search-indexer.ts';
import type { Db } from './index.ts';

/** A page found by search. */

export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  path: string;
}

export interface SectionHit {
  spaceId: string;
  pageId: string;
  anchor: string;
  title: string;
  body: string;
}

// Ranking reads every matching page; a query of words found nearly everywhere ("system user")
// would read the whole space. Pages are ranked from the first this many found, and as many
// again whose title matches (pages named after the query): past that, the query says little
// about what is wanted, and ranking is what such a search costs (ts_rank reads each page's whole
// vector; ts_rank_cd, several times slower, would buy nothing a capped ranking can show).
const MAX_RANKED_PAGES = 200;
const MAX_TITLE_PAGES = 50;

/** A page holding API operations, as search reads it. */
export interface OpenApiPageRow extends PageHit {
  markdown: string;
  document: JSONDocument | null;
  organizationId: string;
  revisionId: string;
}

/** Search and link reads; plain SQL, as these are the hot reads of large spaces. And the indexer of what revisions left to index. */
export function createSearchStore({ pool }: Db, log: Logger) {
  const sql = sqlOn(pool);
  const reindex = (batch?: number) => reindexSearch(sql, batch);
  const indexer = startIndexer(reindex, log);
  // What reads a document's links or headings reads them for every document: those the indexer
  // has not reached yet are analyzed first (found by the partial index of unanalyzed documents).
  const analyzeFirst = async (documentIds: string[]) => {
    const rows = await sql<StoredDocument>('SELECT id, markdown, document FROM "Document" WHERE id = ANY($1::text[]) AND NOT analyzed', [documentIds]);
    if (rows.length) await analyzeStored(sql, rows);
  };
  return {
    /** Tells the indexer that a committed revision left documents to analyze and index. */
    indexLater: indexer.indexLater,
    /** Resolves once what the indexer was told of is indexed (or its run failed). */
    indexed: indexer.idle,
    /** Stops the indexer, after the run in hand. */
    stopIndexing: indexer.stop,

    /**
     * The query (web search syntax: words, "phrases", -not, or) as tsqueries (see SearchQuery):
     * read in every language, any reading matching (a section matches when the whole query does
     * in the language it was stemmed in, whichever that is). Undefined when no reading has a word
     * (stop words).
     */
    async tsquery(query: string): Promise<SearchQuery | undefined> {
      const { rows } = await pool.query<{ exact: string; match: string }>(
        `SELECT DISTINCT websearch_to_tsquery(c, $1)::text AS exact, websearch_to_tsquery(c, $2)::text AS match
         FROM unnest($3::text[]) AS l, CAST('quire_' || l AS regconfig) AS c`,
        [searchText(query, { query: 'exact' }), searchText(query, { query: 'match' }), SEARCH_LANGUAGES],
      );
      // Both readings have the same words: stop words only in one are stop words only in the other.
      const readings = rows.filter((r) => r.exact !== '');
      if (readings.length === 0) return undefined;
      const any = (queries: string[]) => [...new Set(queries)].map((q) => `(${q})`).join(' | ');
      const match = any(readings.map((r) => r.match));
      const exact = any(readings.map((r) => r.exact));
      return exact === match ? { match } : { match, exact };
    },

    /**
     * Pages of the spaces matching the query (see tsquery) in their title or their text, best
     * first (words in the title count most, then in headings). Rows `offset` to `offset + take`.
     */
    async searchPages(spaceIds: string[], query: SearchQuery, offset: number, take: number): Promise<PageHit[]> {
      // The tsqueries are parameters, not computed in the statement: as constants the planner
      // estimates how many rows match (a handful or most of the space) and plans for it. Pages
      // are found and ranked by `match`, which the indexes answer without reading them; `exact`
      // is checked on the ranked pages in rank order, only as far as the rows asked for (OFFSET
      // 0 keeps the check above the ranking).
      const { rows } = await pool.query<PageHit>(
        `WITH hits AS (
           (SELECT "spaceId", "pageId", title, path, ts_rank(content, $1::tsquery, 1) AS rank
            FROM "SpacePage" WHERE content @@ $1::tsquery AND "spaceId" = ANY($2::text[]) LIMIT $5)
           UNION -- a page found both ways is the same row
           (SELECT "spaceId", "pageId", title, path, ts_rank(content, $1::tsquery, 1)
            FROM "SpacePage" WHERE search @@ $1::tsquery AND "spaceId" = ANY($2::text[]) LIMIT $6)
         )
         SELECT "spaceId", "pageId", title, path
         FROM (SELECT * FROM hits ORDER BY rank DESC NULLS LAST, "spaceId", "pageId" OFFSET 0) AS ranked
         WHERE $7::tsquery IS NULL
           OR (SELECT content @@ $7::tsquery OR search @@ $7::tsquery FROM "SpacePage" sp WHERE sp."spaceId" = ranked."spaceId" AND sp."pageId" = ranked."pageId")
         ORDER BY rank DESC NULLS LAST, "spaceId", "pageId" OFFSET $3 LIMIT $4`,
        [query.match, spaceIds, offset, take, MAX_RANKED_PAGES, MAX_TITLE_PAGES, query.exact ?? null],
      );
      return rows;
    },

    /** Whether every page of the spaces is indexed (read from the partial index of those that are not: empty once done). */
    async allIndexed(spaceIds: string[]): Promise<boolean> {
      const { rows } = await pool.query<{ left: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM "SpacePage" WHERE ("search" IS NULL OR "content" IS NULL) AND "spaceId" = ANY($1::text[])) AS left`,
        [spaceIds],
      );
      return !rows[0]!.left;
    },

    /** The best `perPage` sections of each page matching the query exactly, best first within a page (bodies whole). */
    async searchSections(pages: { spaceId: string; pageId: string }[], query: SearchQuery, perPage: number): Promise<SectionHit[]> {
      if (pages.length === 0) return [];
      // The sections are read by their pages (OFFSET 0 keeps the match out of the join): given
      // the match, the planner may read every section of the database that matches instead, by
      // its index, when it estimates them few (it estimates a phrase at one row, and the common
      // words of a CJK query are phrases found in thousands).
      const { rows } = await pool.query<SectionHit>(
        `WITH m AS (
           SELECT "spaceId", "pageId", anchor, title, body,
             row_number() OVER (PARTITION BY "spaceId", "pageId" ORDER BY ts_rank(search, $1::tsquery) DESC, position) AS n
           FROM (
             SELECT sp."spaceId", sp."pageId", ds.position, ds.anchor, ds.title, ds.body, ds.search
             FROM unnest($2::text[], $3::text[]) AS want("spaceId", "pageId")
               JOIN "SpacePage" sp ON sp."spaceId" = want."spaceId" AND sp."pageId" = want."pageId"
               JOIN "DocumentSection" ds ON ds."documentId" = sp."documentId"
             OFFSET 0) AS sections
           WHERE search @@ $1::tsquery
         )
         SELECT "spaceId", "pageId", anchor, title, body FROM m WHERE n <= $4 ORDER BY "spaceId", "pageId", n`,
        [query.exact ?? query.match, pages.map((p) => p.spaceId), pages.map((p) => p.pageId), perPage],
      );
      return rows;
    },

    /**
     * The pages of the spaces whose documents hold an OpenAPI block (found by the partial index of
     * such documents, migration 20261129190000_openapi_search), with their space's organization and revision.
     */
    async openApiPages(spaceIds: string[]) {
      const { rows } = await pool.query<OpenApiPageRow>(
        `SELECT sp."spaceId", sp."pageId", sp.title, sp.path, d.markdown, d.document, s."organizationId", s."revisionId"
         FROM "Document" d JOIN "SpacePage" sp ON sp."documentId" = d.id JOIN "Space" s ON s.id = sp."spaceId"
         WHERE d.markdown LIKE '%{\\% openapi%' AND sp."spaceId" = ANY($1::text[])`,
        [spaceIds],
      );
      return rows;
    },

    /** Indexes what is not indexed (see reindexSearch), statement by statement, now. */
    reindex,

    /** The links of the documents, in document order. */
    async documentLinks(documentIds: string[]) {
      await analyzeFirst(documentIds);
      const { rows } = await pool.query<{ documentId: string; relation: 'link' | 'embed'; kind: 'url' | 'page' | 'anchor' | 'file'; target: string; anchor: string }>(
        `SELECT "documentId", relation, kind, target, anchor FROM "DocumentLink" WHERE "documentId" = ANY($1::text[]) ORDER BY "documentId", position`,
        [documentIds],
      );
      return rows;
    },

    /** The headings of each document (anchor and text), in order. */
    async documentAnchors(documentIds: string[]): Promise<Map<string, HeadingRow[]>> {
      await analyzeFirst(documentIds);
      const { rows } = await pool.query<{ documentId: string } & HeadingRow>(
        `SELECT "documentId", anchor, title FROM "DocumentSection" WHERE "documentId" = ANY($1::text[]) AND anchor <> '' ORDER BY "documentId", position`,
        [documentIds],
      );
      const out = new Map<string, HeadingRow[]>();
      for (const r of rows) {
        let list = out.get(r.documentId);
        if (!list) out.set(r.documentId, (list = []));
        list.push({ anchor: r.anchor, title: r.title });
      }
      return out;
    },

    /** Which of the documents link to or embed the file. */
    async documentsLinkingFile(documentIds: string[], fileId: string): Promise<Set<string>> {
      await analyzeFirst(documentIds);
      const { rows } = await pool.query<{ documentId: string }>(
        `SELECT DISTINCT "documentId" FROM "DocumentLink" WHERE kind = 'file' AND target = $1 AND "documentId" = ANY($2::text[])`,
        [fileId, documentIds],
      );
      return new Set(rows.map((r) => r.documentId));
    },

    /** The organization's spaces that are not deleted, with what decides who sees them. */
    async organizationSpaces(organizationId: string) {
      const { rows } = await pool.query<{ id: string; title: string; parentId: string | null; defaultLevel: Level; visibility: string }>(
        `SELECT id, title, "parentId", "defaultLevel", replace(visibility::text, '_', '-') AS visibility
         FROM "Space" WHERE "organizationId" = $1 AND "deletedAt" IS NULL`,
        [organizationId],
      );
      return rows;
    },
  };
}

export type SearchStore = ReturnType<typeof createSearchStore>;
