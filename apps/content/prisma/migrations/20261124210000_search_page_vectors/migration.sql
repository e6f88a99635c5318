-- Pages are found and ranked by one tsvector each, their title (weight A) and their document's
-- sections (headings B, bodies C), written by content beside the page (src/store/search.ts):
-- a query of common words then reads one row per page in the space, not one per section in the
-- whole database, and the space's filter and the match are read from the same row.
-- Sections keep their own vectors: they pick what is shown under each page found.
CREATE AGGREGATE quire_tsvector_agg(tsvector) (SFUNC = tsvector_concat, STYPE = tsvector, INITCOND = '');

-- Null until content has indexed the page (when it starts, for pages written before).
ALTER TABLE "SpacePage" ADD COLUMN "content" tsvector;
CREATE INDEX "SpacePage_content_idx" ON "SpacePage" USING GIN ("content") WITH (fastupdate = off);
