// Indexes for search what revisions left to index: documents stored unanalyzed, sections and
// pages not indexed. Runs beside every replica, told by revisions and sweeping now and then.
import type { Logger } from '@quire/service-kit';
import { analyzeStored, sectionSearch, sectionVector, type Sql, type StoredDocument } from './search-documents.ts';
import { pageContent, titleSearch, TITLE_VECTOR, unindexed } from './search-pages.ts';

// How often the indexer looks for what is left to index without being told (by a replica that
// stopped before indexing what it wrote): finding nothing is two reads of empty partial indexes.
const SWEEP_MS = 30_000;

// Sections not indexed (language null), indexed; one another indexer did meanwhile is left alone.
const REINDEX_SECTIONS = `
  UPDATE "DocumentSection" ds SET "language" = u.l, "search" = ${sectionVector('coalesce(st, ds.title)', 'coalesce(sb, ds.body)')}
  FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[]) AS u(d, p, l, st, sb)
  WHERE ds."documentId" = u.d AND ds.position = u.p AND ds."language" IS NULL`;

/** What an indexer run did: documents analyzed, sections and pages indexed, and the documents that could not be analyzed. */

export interface Reindexed {
  documents: number;
  sections: number;
  pages: number;
  failed: string[];
}

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

/**
 * Runs `index` when told (a revision left sections to index) and every SWEEP_MS, one run at a
 * time: told while running, it runs once more after. A failed run is tried again by the next sweep.
 */
export function startIndexer(index: () => Promise<Reindexed>, log: Logger) {
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
