-- Search finds pages by SpacePage's indexes and reads the matching sections of those pages only
-- (searchSections joins them by document): no query reads sections by this index, and keeping it
-- cost every import a GIN insertion per section, PostgreSQL's largest share of a 1,000-page import.
DROP INDEX "DocumentSection_search_idx";
