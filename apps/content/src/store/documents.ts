import type { JSONDocument } from '@quire/document';
import type pg from 'pg';

/** Documents (markdown and model, stored once by content hash) and which spaces hold them. */
export function createDocumentStore(pool: pg.Pool) {
  return {
    /** Markdown by document id, for the ids that exist. */
    async getDocuments(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const { rows } = await pool.query<{ id: string; markdown: string }>('SELECT id, markdown FROM "Document" WHERE id = ANY($1::text[])', [[...new Set(ids)]]);
      return new Map(rows.map((r) => [r.id, r.markdown]));
    },

    /** Markdown and its document (null when stored without one and not analyzed yet: see search's writeDocuments) by document id, for the ids that exist. */
    async getStoredDocuments(ids: string[]): Promise<Map<string, { markdown: string; document: JSONDocument | null }>> {
      if (ids.length === 0) return new Map();
      const { rows } = await pool.query<{ id: string; markdown: string; document: JSONDocument | null }>(
        'SELECT id, markdown, document FROM "Document" WHERE id = ANY($1::text[])',
        [[...new Set(ids)]],
      );
      return new Map(rows.map((r) => [r.id, { markdown: r.markdown, document: r.document }]));
    },

    /**
     * Whether the document belongs to one of the space's revisions, a page's or a reusable
     * content's (the active one's pages are checked first, by index; then each chunk of the
     * space's revisions once, and the trees of rows from before chunks).
     */
    async spaceHasDocument(spaceId: string, activeRevisionId: string, documentId: string): Promise<boolean> {
      const { rows } = await pool.query(
        `WITH revisions AS (SELECT * FROM "Revision" WHERE "spaceId" = $1 OR id = $2)
         SELECT EXISTS (SELECT 1 FROM "SpacePage" WHERE "spaceId" = $1 AND "documentId" = $3)
             OR EXISTS (SELECT 1 FROM revisions
                          WHERE jsonb_path_exists(tree, '$.**.documentId ? (@ == $d)', jsonb_build_object('d', $3::text))
                             OR jsonb_path_exists("reusableContents", '$[*].documentId ? (@ == $d)', jsonb_build_object('d', $3::text)))
             OR EXISTS (SELECT 1 FROM "TreeChunk" WHERE id IN (SELECT unnest("pageChunks") FROM revisions)
                          AND jsonb_path_exists(content::jsonb, '$[*].documentId ? (@ == $d)', jsonb_build_object('d', $3::text))) AS found`,
        [spaceId, activeRevisionId, documentId],
      );
      return rows[0].found as boolean;
    },
  };
}
