-- The reusable contents of a Git import (`.gitbook/includes/*.md`: id, title, document, Git
-- file), kept with each revision and carried by the revisions made on it. Older revisions have none.
ALTER TABLE "Revision" ADD COLUMN "reusableContents" JSONB NOT NULL DEFAULT '[]';
