// What search and link checks read of a document, written once per document beside the
// revisions: its sections (with their tsvector) and links. Documents stored unanalyzed by a
// large revision are analyzed here too, by the indexer (search-indexer.ts).
import type { JSONDocument } from '@quire/document';
import type { DocumentBody } from '../domain/changes.ts';
import { analyze } from '../domain/markdown.ts';
import { searchLanguage, searchText } from '../domain/search.ts';

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

export interface IndexedDocument extends DocumentBody {
  id: string;
}

// A text's tsvector in its language (`quire_<language>`, see SEARCH_LANGUAGES), of `weight`:
// `language` and `text` are SQL expressions, `text` already as searchText makes it.
export const vector = (language: string, text: string, weight: 'A' | 'B') => `setweight(to_tsvector(('quire_' || ${language})::regconfig, ${text}), '${weight}')`;
// A section's, in its language `l`: its title weighs more than its body.
export const sectionVector = (title: string, body: string) => `${vector('l', title, 'A')} || ${vector('l', body, 'B')}`;

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
export function sectionSearch(title: string, body: string) {
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
export async function analyzeStored(sql: Sql, rows: StoredDocument[]): Promise<{ analyzed: number; failed: string[] }> {
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

export interface StoredDocument {
  id: string;
  markdown: string;
  document: JSONDocument | null;
}
