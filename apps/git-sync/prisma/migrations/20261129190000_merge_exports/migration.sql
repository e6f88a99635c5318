-- A merged change request's export: the change request and its merger (the commit's author).
ALTER TABLE "GitJob" ADD COLUMN "changeRequestId" TEXT, ADD COLUMN "authorName" TEXT, ADD COLUMN "authorEmail" TEXT;
