-- A revision that brings many documents (an import) is written without their sections' vectors:
-- content indexes them right after the revision is committed (src/store/search.ts, the indexer),
-- so the write costs what storing costs. Until then a section's language and vector are null and
-- its pages' vectors (made of them) are null too: such pages are found by their titles only.
ALTER TABLE "DocumentSection" ALTER COLUMN "search" DROP NOT NULL;

-- What the indexer reads: only what is left to index, so finding it costs nothing once done.
CREATE INDEX "DocumentSection_unindexed_idx" ON "DocumentSection" ("documentId", "position") WHERE "language" IS NULL;
CREATE INDEX "SpacePage_unindexed_idx" ON "SpacePage" ("documentId") WHERE "search" IS NULL OR "content" IS NULL;
