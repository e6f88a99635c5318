// What search and link checks read, written beside the revisions: each document's sections (with
// their tsvector) and links, once per document, and the pages of each space's active revision.
import type { JSONDocument } from '@quire/document';
import type { Logger } from '@quire/service-kit';
import type { Level } from '../domain/access.ts';
import type { DocumentBody } from '../domain/changes.ts';
import type { HeadingRow } from '../domain/links.ts';
import { analyze } from '../domain/markdown.ts';
import { SEARCH_LANGUAGES, searchLanguage, searchText, type SearchQuery } from '../domain/search.ts';
import type { Db } from './index.ts';

/** Runs one statement and answers its rows: a pg client in a transaction, or Prisma's. */
export type Sql = <R = unknown>(text: string, values: unknown[]) => Promise<R[]>;

/** Sql on a pg client (a transaction's), or on the pool: each statement then on a connection of its own, committed by itself. */
export const sqlOn =
  (db: { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> }): Sql =>
  async <R>(text: string, values: unknown[]) =>
    (await db.query(text, values)).rows as R[];

// to_tsvector refuses more than 1 MB of lexemes; a section longer than this is rare (a pasted log)
// and its tail adds nothing findable that its head lacks.
const MAX_SECTION_CHARS = 100_000;
// Rows per INSERT: the arrays travel as one parameter each, this only bounds a statement's size.
const BATCH = 2000;
// Documents parsed between two INSERTs of their index rows: small enough that PostgreSQL computes
// one batch's tsvectors while the next batch is parsed (and other calls get the event loop), large
// enough that round trips stay few.
const PARSE_BATCH = 50;
// New documents a revision reads into the model and indexes as it is written; one that brings
// more (an import, a large merge) stores them as given and leaves reading them (model, sections,
// links) and indexing them to the indexer, right after its commit: reading 1,000 pages of markdown
// and writing what it yields was most of such a write's cost (bench/README.md, git-sync), and
// an edit stays searchable at once.
export const INDEX_INLINE_DOCUMENTS = PARSE_BATCH;
/** Whether writeDocuments analyzes `count` new documents as it writes them (else it leaves them to the indexer). */
export const analyzedInline = (count: number) => count <= INDEX_INLINE_DOCUMENTS;
// How often the indexer looks for what is left to index without being told (by a replica that
// stopped before indexing what it wrote): finding nothing is two reads of empty partial indexes.
const SWEEP_MS = 30_000;

export interface IndexedDocument extends DocumentBody {
  id: string;
}

// A text's tsvector in its language (`quire_<language>`, see SEARCH_LANGUAGES), of `weight`:
// `language` and `text` are SQL expressions, `text` already as searchText makes it.
const vector = (language: string, text: string, weight: 'A' | 'B') => `setweight(to_tsvector(('quire_' || ${language})::regconfig, ${text}), '${weight}')`;
// A section's, in its language `l`: its title weighs more than its body.
const sectionVector = (title: string, body: string) => `${vector('l', title, 'A')} || ${vector('l', body, 'B')}`;

// Documents from a statement's parameters, row by row (columns i, d and, with `markdown`, m): ids
// as a text array, models and markdown texts as one JSON array each (JSON.stringify and
// PostgreSQL's JSON reader are native code; as a text array, pg escapes each element in
// JavaScript and PostgreSQL reads it back).
const documentRows = (ids: string, models: string, markdown?: string) =>
  `unnest(${ids}::text[]) WITH ORDINALITY AS u(i, n) JOIN jsonb_array_elements(${models}::jsonb) WITH ORDINALITY AS j(d, n) USING (n)` +
  (markdown ? ` JOIN json_array_elements_text(${markdown}::json) WITH ORDINALITY AS t(m, n) USING (n)` : '');

// The documents and both index tables as the CTEs of one statement, its parameters numbered from
// $first (indexParams gives them): one round trip per batch, or none of its own in a caller's
// statement. `stored` is for documents stored unanalyzed (see writeDocuments): their model written
// and their rows added only where no one else analyzed them meanwhile (the row lock makes a second
// analyzer wait, then find the document analyzed); their markdown, stored already, does not travel.
export function indexCtes(first: number, stored = false): string {
  const $ = (n: number) => `$${n + first - 1}`;
  const documents = stored
    ? `UPDATE "Document" d SET document = coalesce(d.document, j.d), analyzed = true
       FROM ${documentRows($(12), $(13))} WHERE d.id = u.i AND NOT d.analyzed RETURNING d.id`
    : `INSERT INTO "Document" (id, markdown, document) SELECT i, m, d FROM ${documentRows($(12), $(13), $(17))} ON CONFLICT DO NOTHING`;
  const only = (column: string) => (stored ? `WHERE ${column} IN (SELECT id FROM documents)` : '');
  return `
  documents AS (${documents}),
  sections AS (
    INSERT INTO "DocumentSection" ("documentId", "position", "anchor", "title", "body", "language", "search")
    SELECT d, p, a, t, b, l, CASE WHEN l IS NOT NULL THEN ${sectionVector('coalesce(st, t)', 'coalesce(sb, b)')} END
    FROM unnest(${$(1)}::text[], ${$(2)}::int[], ${$(3)}::text[], ${$(4)}::text[], ${$(5)}::text[], ${$(14)}::text[], ${$(15)}::text[], ${$(16)}::text[]) AS u(d, p, a, t, b, l, st, sb)
    ${only('d')}
    ON CONFLICT DO NOTHING),
  links AS (
    INSERT INTO "DocumentLink" ("documentId", "position", "relation", "kind", "target", "anchor")
    SELECT * FROM unnest(${$(6)}::text[], ${$(7)}::int[], ${$(8)}::text[], ${$(9)}::text[], ${$(10)}::text[], ${$(11)}::text[]) AS u(d, p, r, k, t, a)
    ${only('d')}
    ON CONFLICT DO NOTHING)`;
}
const INDEX = `WITH ${indexCtes(1)} SELECT 1`;
const ANALYZE = `WITH ${indexCtes(1, true)} SELECT count(*)::int AS n FROM documents`;

/**
 * What indexes a section for search: its language and its title and body as searchText makes
 * them, null where that is the text itself (most text: only CJK and punctuation beyond ASCII
 * differ), so they travel once.
 */
function sectionSearch(title: string, body: string) {
  const language = searchLanguage(`${title}\n${body}`);
  const t = searchText(title);
  const b = searchText(body);
  return { language, title: t === title ? null : t, body: b === body ? null : b };
}

/**
 * The documents read into the model (the client's, else their markdown read once) and their index
 * rows, a column each. The documents' models travel as one JSON array, in the order of their ids:
 * as a text array, each model's JSON was escaped again element by element (most of pg's work on a batch).
 */
function indexRows(docs: IndexedDocument[]) {
  const d = { id: [] as string[], markdown: [] as string[], document: [] as unknown[] };
  const s = { documentId: [] as string[], position: [] as number[], anchor: [] as string[], title: [] as string[], body: [] as string[] };
  const search = { language: [] as (string | null)[], title: [] as (string | null)[], body: [] as (string | null)[] };
  const l = { documentId: [] as string[], position: [] as number[], relation: [] as string[], kind: [] as string[], target: [] as string[], anchor: [] as string[] };
  for (const { id, ...body } of docs) {
    const { document, sections, links } = analyze(body);
    d.id.push(id);
    d.markdown.push(body.markdown);
    d.document.push(document);
    sections.forEach((section, position) => {
      const title = section.title.slice(0, MAX_SECTION_CHARS);
      const body = section.body.slice(0, MAX_SECTION_CHARS);
      s.documentId.push(id);
      s.position.push(position);
      s.anchor.push(section.anchor);
      s.title.push(title);
      s.body.push(body);
      const indexed = sectionSearch(title, body);
      search.language.push(indexed.language);
      search.title.push(indexed.title);
      search.body.push(indexed.body);
    });
    links.forEach((link, position) => {
      l.documentId.push(id);
      l.position.push(position);
      l.relation.push(link.relation);
      l.kind.push(link.kind);
      l.target.push(link.target);
      l.anchor.push(link.anchor);
    });
  }
  return {
    sections: [s.documentId, s.position, s.anchor, s.title, s.body],
    links: [l.documentId, l.position, l.relation, l.kind, l.target, l.anchor],
    documents: [d.id, JSON.stringify(d.document)],
    search: [search.language, search.title, search.body],
    markdown: JSON.stringify(d.markdown),
  };
}

/** The documents analyzed into what indexCtes writes (`stored` as there): its parameters, in order. */
export function indexParams(docs: IndexedDocument[], stored = false): unknown[] {
  const rows = indexRows(docs);
  return [...rows.sections, ...rows.links, ...rows.documents, ...rows.search, ...(stored ? [] : [rows.markdown])];
}

// Documents stored as given, their model (when the client gave one) kept, to be analyzed later.
const STORE_UNANALYZED = `
  INSERT INTO "Document" (id, markdown, document, analyzed)
  SELECT i, m, nullif(d, 'null'::jsonb), false FROM ${documentRows('$1', '$2', '$3')}
  ON CONFLICT DO NOTHING`;

/**
 * Stores the documents (new ones: the caller leaves out those stored already). Up to
 * INDEX_INLINE_DOCUMENTS are analyzed as they are written: each with its model, and the model's
 * sections (title weighted A, body B, indexed) and links. More are stored unanalyzed: answers
 * whether they were, for the indexer to run once they are committed (reads meanwhile read the
 * markdown, see analyzeFirst). Documents are immutable by content hash, so a concurrent writer of
 * the same one is harmless (ON CONFLICT DO NOTHING).
 */
export async function writeDocuments(sql: Sql, docs: IndexedDocument[]): Promise<{ unanalyzed: boolean }> {
  if (analyzedInline(docs.length)) {
    await sql(INDEX, indexParams(docs));
    return { unanalyzed: false };
  }
  await sql(STORE_UNANALYZED, [docs.map((d) => d.id), JSON.stringify(docs.map((d) => d.document ?? null)), JSON.stringify(docs.map((d) => d.markdown))]);
  return { unanalyzed: true };
}

/**
 * Analyzes documents stored unanalyzed, `PARSE_BATCH` at a time, each batch one statement (see
 * indexCtes' `stored`): analyzing (here) and tsvectors (in PostgreSQL) overlap, a batch's rows sent
 * before the next batch is analyzed and awaited after. Answers how many this call analyzed.
 */
async function analyzeBatches(sql: Sql, rows: StoredDocument[]): Promise<number> {
  let analyzed = 0;
  let pending: Promise<{ n: number }[]> = Promise.resolve([]);
  for (let i = 0; i < rows.length; i += PARSE_BATCH) {
    const params = indexParams(
      rows.slice(i, i + PARSE_BATCH).map((r) => ({ id: r.id, markdown: r.markdown, document: r.document ?? undefined })),
      true,
    );
    analyzed += (await pending)[0]?.n ?? 0;
    pending = sql<{ n: number }>(ANALYZE, params);
    // Awaited on the next turn or below; should analyzing the next batch throw, its failure is moot.
    pending.catch(() => undefined);
  }
  return analyzed + ((await pending)[0]?.n ?? 0);
}

/**
 * analyzeBatches, and when that fails, each document alone: one that cannot be analyzed (a model
 * stored broken) holds back neither the others nor the read that asked for them. Answers how many
 * were analyzed and the ids of those that failed, left unanalyzed.
 */
async function analyzeStored(sql: Sql, rows: StoredDocument[]): Promise<{ analyzed: number; failed: string[] }> {
  try {
    return { analyzed: await analyzeBatches(sql, rows), failed: [] };
  } catch {
    const out = { analyzed: 0, failed: [] as string[] };
    for (const row of rows) {
      await analyzeBatches(sql, [row]).then(
        (n) => (out.analyzed += n),
        () => out.failed.push(row.id),
      );
    }
    return out;
  }
}

interface StoredDocument {
  id: string;
  markdown: string;
  document: JSONDocument | null;
}

// Whether the document (an SQL expression) has something left to index: it is not analyzed yet,
// not stored yet as this statement sees it (a large revision's documents are committed on a
// connection of their own, see writeRevision), or it has sections not indexed.
const unindexed = (documentId: string) =>
  `(NOT EXISTS (SELECT 1 FROM "Document" WHERE id = ${documentId} AND analyzed) OR EXISTS (SELECT 1 FROM "DocumentSection" WHERE "documentId" = ${documentId} AND "language" IS NULL))`;

// Sections not indexed (language null), indexed; one another indexer did meanwhile is left alone.
const REINDEX_SECTIONS = `
  UPDATE "DocumentSection" ds SET "language" = u.l, "search" = ${sectionVector('coalesce(st, ds.title)', 'coalesce(sb, ds.body)')}
  FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[]) AS u(d, p, l, st, sb)
  WHERE ds."documentId" = u.d AND ds.position = u.p AND ds."language" IS NULL`;

/**
 * Analyzes the documents stored unanalyzed (left by a large revision, stored before the document
 * model, or whose sections held GitBook tags as words), then indexes, `batch` at a time, the sections not indexed (indexed before languages),
 * then the pages not indexed whose documents are (written beside those documents, before content
 * indexed pages, or made of sections indexed again): see the migrations
 * 20261124200000_search_every_language, 20261124210000_search_page_vectors,
 * 20261126100000_search_indexed_after_write, 20261128100000_documents_analyzed_after_write and
 * 20261129100000_search_without_tag_words.
 * Idempotent, so safe beside other replicas doing the same. Answers how many of each it did.
 */
/** What an indexer run did: documents analyzed, sections and pages indexed, and the documents that could not be analyzed. */
export interface Reindexed {
  documents: number;
  sections: number;
  pages: number;
  failed: string[];
}

export async function reindexSearch(sql: Sql, batch = 500): Promise<Reindexed> {
  let documents = 0;
  const failed: string[] = [];
  for (let after = ''; ;) {
    const rows = await sql<StoredDocument>('SELECT id, markdown, document FROM "Document" WHERE NOT analyzed AND id > $1 ORDER BY id LIMIT $2', [after, batch]);
    if (rows.length === 0) break;
    const done = await analyzeStored(sql, rows);
    documents += done.analyzed;
    failed.push(...done.failed);
    after = rows.at(-1)!.id;
  }
  let sections = 0;
  for (let after = { d: '', p: -1 }; ;) {
    const rows = await sql<{ documentId: string; position: number; title: string; body: string }>(
      `SELECT "documentId", position, title, body FROM "DocumentSection"
       WHERE "language" IS NULL AND ("documentId", position) > ($1, $2) ORDER BY "documentId", position LIMIT $3`,
      [after.d, after.p, batch],
    );
    if (rows.length === 0) break;
    const indexed = rows.map((r) => sectionSearch(r.title, r.body));
    await sql(REINDEX_SECTIONS, [
      rows.map((r) => r.documentId),
      rows.map((r) => r.position),
      indexed.map((i) => i.language),
      indexed.map((i) => i.title),
      indexed.map((i) => i.body),
    ]);
    // Their pages' vectors are made of them: indexed again below.
    await sql(`UPDATE "SpacePage" SET content = NULL WHERE "documentId" = ANY($1::text[]) AND content IS NOT NULL`, [[...new Set(rows.map((r) => r.documentId))]]);
    sections += rows.length;
    after = { d: rows.at(-1)!.documentId, p: rows.at(-1)!.position };
  }
  let pages = 0;
  for (;;) {
    // A page whose document is being indexed by another run meanwhile is that run's.
    const rows = await sql<{ spaceId: string; pageId: string; title: string }>(
      `SELECT "spaceId", "pageId", title FROM "SpacePage" sp
       WHERE (search IS NULL OR content IS NULL) AND NOT ${unindexed('sp."documentId"')} LIMIT $1`,
      [batch],
    );
    if (rows.length === 0) break;
    const t = titleSearch(rows.map((r) => r.title));
    await sql(
      `UPDATE "SpacePage" sp SET search = u.tv, content = ${pageContent('u.tv', 'sp."documentId"')}
       FROM (SELECT s, p, ${TITLE_VECTOR} AS tv FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(s, p, l, st)) AS u
       WHERE sp."spaceId" = u.s AND sp."pageId" = u.p`,
      [rows.map((r) => r.spaceId), rows.map((r) => r.pageId), t.language, t.text],
    );
    pages += rows.length;
  }
  return { documents, sections, pages, failed };
}

export interface SpacePageEntry {
  pageId: string;
  documentId: string;
  title: string;
  path: string;
}

/** The parameters a page title's tsvector is written from (TITLE_VECTOR): its language and text. */
function titleSearch(titles: string[]) {
  return { language: titles.map((t) => searchLanguage(t)), text: titles.map((t) => searchText(t)) };
}
const TITLE_VECTOR = vector('l', 'st', 'A');
// A page's vector: its title's (`titleVector`, an SQL expression) and its document's sections',
// headings B and bodies C (sections hold them as A and B, see sectionVector), in document order.
// Null while the document is left to analyze or index: the indexer writes it once it is.
const pageContent = (titleVector: string, documentId: string) => `CASE WHEN NOT ${unindexed(documentId)} THEN ${titleVector} || coalesce((
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

/**
 * Runs `index` when told (a revision left sections to index) and every SWEEP_MS, one run at a
 * time: told while running, it runs once more after. A failed run is tried again by the next sweep.
 */
function startIndexer(index: () => Promise<Reindexed>, log: Logger) {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const loop = async () => {
    do {
      again = false;
      try {
        const { failed, ...n } = await index();
        if (n.documents || n.sections || n.pages) log.info(n, 'documents analyzed, sections and pages indexed for search');
        // Tried again at every sweep; their pages are found by their titles meanwhile.
        if (failed.length) log.error({ documents: failed }, 'documents that cannot be analyzed were left unanalyzed');
      } catch (err) {
        log.error({ err }, 'indexing for search failed; pages left are found by their titles only until the next sweep');
      }
    } while (again && !stopped);
    running = undefined;
  };
  const indexLater = () => {
    if (stopped) return;
    if (running) again = true;
    else running = loop();
  };
  const idle = async () => {
    while (running) await running;
  };
  const timer = setInterval(indexLater, SWEEP_MS).unref();
  // What was left when a process stopped (or written before languages) is indexed at start.
  indexLater();
  return {
    indexLater,
    idle,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await idle();
    },
  };
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
