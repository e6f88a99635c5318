-- AlterTable
ALTER TABLE "Revision" ADD COLUMN     "git" JSONB,
ADD COLUMN     "tree" JSONB NOT NULL DEFAULT '{"pages":[],"files":[],"variables":{}}';

-- CreateTable
CREATE TABLE "Document" (
    "id" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DocumentSection" (
    "documentId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "anchor" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "search" tsvector NOT NULL,

    CONSTRAINT "DocumentSection_pkey" PRIMARY KEY ("documentId","position")
);

-- CreateTable
CREATE TABLE "DocumentLink" (
    "documentId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "relation" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "anchor" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "DocumentLink_pkey" PRIMARY KEY ("documentId","position")
);

-- CreateTable
CREATE TABLE "SpacePage" (
    "spaceId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "path" TEXT NOT NULL,

    CONSTRAINT "SpacePage_pkey" PRIMARY KEY ("spaceId","pageId")
);

-- CreateIndex
CREATE INDEX "DocumentSection_search_idx" ON "DocumentSection" USING GIN ("search");

-- CreateIndex
CREATE INDEX "DocumentLink_kind_target_idx" ON "DocumentLink"("kind", "target");

-- CreateIndex
CREATE INDEX "SpacePage_documentId_idx" ON "SpacePage"("documentId");

-- CreateIndex
CREATE INDEX "Revision_spaceId_idx" ON "Revision"("spaceId");

