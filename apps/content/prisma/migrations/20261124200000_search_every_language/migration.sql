-- Search in every language. Each section is stemmed in its own language (content detects it:
-- DocumentSection.language), by one text search configuration per language: the language's
-- Snowball stemmer after accents are taken off (unaccent, a trusted extension PostgreSQL ships),
-- so "cafe" finds "café", and Russian and Greek stem ASCII words in English. CJK text arrives cut
-- into bigrams by content. The list of languages is SEARCH_LANGUAGES in src/domain/search.ts.
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TEXT SEARCH CONFIGURATION quire_english (COPY = pg_catalog.english);
ALTER TEXT SEARCH CONFIGURATION quire_english ALTER MAPPING FOR word, hword, hword_part WITH unaccent, english_stem;
CREATE TEXT SEARCH CONFIGURATION quire_french (COPY = pg_catalog.french);
ALTER TEXT SEARCH CONFIGURATION quire_french ALTER MAPPING FOR word, hword, hword_part WITH unaccent, french_stem;
CREATE TEXT SEARCH CONFIGURATION quire_german (COPY = pg_catalog.german);
ALTER TEXT SEARCH CONFIGURATION quire_german ALTER MAPPING FOR word, hword, hword_part WITH unaccent, german_stem;
CREATE TEXT SEARCH CONFIGURATION quire_spanish (COPY = pg_catalog.spanish);
ALTER TEXT SEARCH CONFIGURATION quire_spanish ALTER MAPPING FOR word, hword, hword_part WITH unaccent, spanish_stem;
CREATE TEXT SEARCH CONFIGURATION quire_italian (COPY = pg_catalog.italian);
ALTER TEXT SEARCH CONFIGURATION quire_italian ALTER MAPPING FOR word, hword, hword_part WITH unaccent, italian_stem;
CREATE TEXT SEARCH CONFIGURATION quire_portuguese (COPY = pg_catalog.portuguese);
ALTER TEXT SEARCH CONFIGURATION quire_portuguese ALTER MAPPING FOR word, hword, hword_part WITH unaccent, portuguese_stem;
CREATE TEXT SEARCH CONFIGURATION quire_russian (COPY = pg_catalog.russian);
ALTER TEXT SEARCH CONFIGURATION quire_russian ALTER MAPPING FOR word, hword, hword_part WITH unaccent, russian_stem;
CREATE TEXT SEARCH CONFIGURATION quire_greek (COPY = pg_catalog.greek);
ALTER TEXT SEARCH CONFIGURATION quire_greek ALTER MAPPING FOR asciiword, asciihword, hword_asciipart WITH english_stem;
ALTER TEXT SEARCH CONFIGURATION quire_greek ALTER MAPPING FOR word, hword, hword_part WITH unaccent, greek_stem;

-- Null: indexed before, in English only (content indexes these sections again when it starts).
ALTER TABLE "DocumentSection" ADD COLUMN "language" TEXT;

-- Page titles are indexed by content too (language and bigrams are its rules), no longer by the
-- database, null until content has indexed a title again.
DROP INDEX "SpacePage_search_idx";
ALTER TABLE "SpacePage" DROP COLUMN "search";
ALTER TABLE "SpacePage" ADD COLUMN "search" tsvector;
CREATE INDEX "SpacePage_search_idx" ON "SpacePage" USING GIN ("search") WITH (fastupdate = off);
