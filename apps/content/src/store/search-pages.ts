// The pages of each space's active revision, one SpacePage row each: what search finds.
import { searchLanguage, searchText } from '../domain/search.ts';
import { vector, type Sql } from './search-documents.ts';

// Rows per INSERT: the arrays travel as one parameter each, this only bounds a statement's size.
const BATCH = 2000;

// Whether the document (an SQL expression) has something left to index: it is not analyzed yet,
// not stored yet as this statement sees it (a large revision's documents are committed on a
// connection of their own, see writeRevision), or it has sections not indexed.
export const unindexed = (documentId: string) =>
  `(NOT EXISTS (SELECT 1 FROM "Document" WHERE id = ${documentId} AND analyzed) OR EXISTS (SELECT 1 FROM "DocumentSection" WHERE "documentId" = ${documentId} AND "language" IS NULL))`;

export interface SpacePageEntry {
  pageId: string;
  documentId: string;
  title: string;
  path: string;
}

/** The parameters a page title's tsvector is written from (TITLE_VECTOR): its language and text. */
export function titleSearch(titles: string[]) {
  return { language: titles.map((t) => searchLanguage(t)), text: titles.map((t) => searchText(t)) };
}

export const TITLE_VECTOR = vector('l', 'st', 'A');
// A page's vector: its title's (`titleVector`, an SQL expression) and its document's sections',
// headings B and bodies C (sections hold them as A and B, see sectionVector), in document order.
// Null while the document is left to analyze or index: the indexer writes it once it is.
export const pageContent = (titleVector: string, documentId: string) => `CASE WHEN NOT ${unindexed(documentId)} THEN ${titleVector} || coalesce((
  SELECT quire_tsvector_agg(setweight(ts_filter(ds.search, '{a}'), 'B') || setweight(ts_filter(ds.search, '{b}'), 'C') ORDER BY ds.position)
  FROM "DocumentSection" ds WHERE ds."documentId" = ${documentId}), '') END`;

/**
 * Makes the space's SpacePage rows exactly `pages` (the document pages of its active revision):
 * rows of pages gone are deleted, new and changed ones written, unchanged ones left alone, so a
 * revision that touches one page rewrites one row.
 */
export async function syncSpacePages(sql: Sql, spaceId: string, pages: SpacePageEntry[]): Promise<void> {
  await sql(`DELETE FROM "SpacePage" WHERE "spaceId" = $1 AND NOT ("pageId" = ANY($2::text[]))`, [spaceId, pages.map((p) => p.pageId)]);
  for (let i = 0; i < pages.length; i += BATCH) {
    const chunk = pages.slice(i, i + BATCH);
    const titles = titleSearch(chunk.map((p) => p.title));
    // Vectors are computed for new and changed pages only (a one-page edit computes one).
    await sql(
      `INSERT INTO "SpacePage" ("spaceId", "pageId", "documentId", "title", "path", "search", "content")
       SELECT $1, p, d, t, pa, tv, ${pageContent('tv', 'd')}
       FROM (
         SELECT p, d, t, pa, ${TITLE_VECTOR} AS tv
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(p, d, t, pa, l, st)
           LEFT JOIN "SpacePage" old ON old."spaceId" = $1 AND old."pageId" = u.p
         WHERE old."pageId" IS NULL OR (old."documentId", old.title, old.path) IS DISTINCT FROM (u.d, u.t, u.pa)
       ) AS changed
       ON CONFLICT ("spaceId", "pageId") DO UPDATE SET "documentId" = EXCLUDED."documentId", "title" = EXCLUDED."title", "path" = EXCLUDED."path",
         "search" = EXCLUDED."search", "content" = EXCLUDED."content"
       WHERE ("SpacePage"."documentId", "SpacePage"."title", "SpacePage"."path") IS DISTINCT FROM (EXCLUDED."documentId", EXCLUDED."title", EXCLUDED."path")`,
      [spaceId, chunk.map((p) => p.pageId), chunk.map((p) => p.documentId), chunk.map((p) => p.title), chunk.map((p) => p.path), titles.language, titles.text],
    );
  }
}
