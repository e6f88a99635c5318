-- Search finds the operations of API reference pages (src/rpc/search-openapi.ts): the documents
-- holding an OpenAPI block are read by this partial index, not by reading every document's markdown.
CREATE INDEX "Document_openapi_idx" ON "Document" ("id") WHERE "markdown" LIKE '%{\% openapi%';
