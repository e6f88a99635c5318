-- Documents in the document model beside their markdown. Existing rows are converted by the
-- content service when it starts (SQL cannot parse markdown): reads parse them until then.
ALTER TABLE "Document" ADD COLUMN "document" JSONB;
