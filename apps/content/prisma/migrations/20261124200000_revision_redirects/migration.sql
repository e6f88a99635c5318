-- The redirects of a Git import (.gitbook.yaml: old published path to page and anchor), kept
-- with each revision and carried by the revisions made on it. Older revisions have none.
ALTER TABLE "Revision" ADD COLUMN "redirects" JSONB NOT NULL DEFAULT '[]';
