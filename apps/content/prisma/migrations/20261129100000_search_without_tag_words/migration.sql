-- Search leaves out the GitBook tags a document holds as text (a `{% … %}` unpaired, unknown or
-- inside a line of text): they are structure, never words to find. Documents whose sections may
-- hold one are analyzed again by the indexer (src/store/search.ts): their sections are written
-- anew, and the vectors of their pages with them (their model and links stay as they are).
UPDATE "Document" SET "analyzed" = false
WHERE "analyzed" AND "id" IN (SELECT "documentId" FROM "DocumentSection" WHERE strpos("title", '{%') > 0 OR strpos("body", '{%') > 0);
DELETE FROM "DocumentSection" WHERE "documentId" IN (SELECT "id" FROM "Document" WHERE NOT "analyzed");
UPDATE "SpacePage" SET "content" = NULL WHERE "documentId" IN (SELECT "id" FROM "Document" WHERE NOT "analyzed");
