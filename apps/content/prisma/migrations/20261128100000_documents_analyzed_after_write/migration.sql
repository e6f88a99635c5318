-- A revision that brings many documents (an import) stores them as given: content reads them into
-- the document model and writes their sections and links right after the revision is committed
-- (src/store/search.ts, the indexer), so the write costs what storing costs. Until then a
-- document is not `analyzed`: reads read its markdown, and what reads its links or headings
-- analyzes it first.
ALTER TABLE "Document" ADD COLUMN "analyzed" BOOLEAN NOT NULL DEFAULT true;

-- Documents stored before the document model are analyzed the same way, and their links, as the
-- markdown parser read them, are read again from the model.
UPDATE "Document" SET "analyzed" = false WHERE "document" IS NULL;
DELETE FROM "DocumentLink" WHERE "documentId" IN (SELECT id FROM "Document" WHERE NOT "analyzed");

-- What the indexer and the link reads look for: only what is left, so finding it costs nothing once done.
CREATE INDEX "Document_unanalyzed_idx" ON "Document" ("id") WHERE NOT "analyzed";
