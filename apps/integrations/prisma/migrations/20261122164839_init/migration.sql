-- CreateEnum
CREATE TYPE "Runtime" AS ENUM ('v1', 'v2');

-- CreateEnum
CREATE TYPE "Visibility" AS ENUM ('public', 'private', 'unlisted');

-- CreateEnum
CREATE TYPE "Target" AS ENUM ('all', 'site', 'space', 'organization');

-- CreateTable
CREATE TABLE "Integration" (
    "name" TEXT NOT NULL,
    "ownerOrganizationId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "summary" TEXT,
    "previewImages" BYTEA[],
    "icon" BYTEA,
    "runtime" "Runtime" NOT NULL,
    "visibility" "Visibility" NOT NULL,
    "target" "Target" NOT NULL,
    "scopes" TEXT[],
    "categories" TEXT[],
    "blocks" JSONB NOT NULL,
    "contentSources" JSONB NOT NULL,
    "externalLinks" JSONB NOT NULL,
    "configurations" JSONB,
    "blockDomains" TEXT[],
    "hasBlocks" BOOLEAN NOT NULL,
    "hasContentSources" BOOLEAN NOT NULL,
    "script" TEXT NOT NULL,
    "secrets" BYTEA,
    "contentSecurityPolicy" JSONB,
    "publishedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Integration_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "Integration_ownerOrganizationId_name_idx" ON "Integration"("ownerOrganizationId", "name");

-- CreateIndex
CREATE INDEX "Integration_visibility_name_idx" ON "Integration"("visibility", "name");

-- CreateIndex
CREATE INDEX "Integration_blockDomains_idx" ON "Integration" USING GIN ("blockDomains");

-- CreateIndex
CREATE INDEX "Integration_categories_idx" ON "Integration" USING GIN ("categories");

-- CreateIndex
CREATE INDEX "Integration_scopes_idx" ON "Integration" USING GIN ("scopes");
