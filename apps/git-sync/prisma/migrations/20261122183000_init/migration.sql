-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Direction" AS ENUM ('import', 'export');

-- CreateEnum
CREATE TYPE "JobState" AS ENUM ('queued', 'running', 'applying', 'done', 'failed');

-- CreateTable
CREATE TABLE "SpaceGitSync" (
    "spaceId" TEXT NOT NULL,
    "repoName" TEXT NOT NULL,
    "installationProvider" TEXT,
    "integration" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "lastTimestamp" TIMESTAMP(3),

    CONSTRAINT "SpaceGitSync_pkey" PRIMARY KEY ("spaceId")
);

-- CreateTable
CREATE TABLE "GitJob" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "direction" "Direction" NOT NULL,
    "state" "JobState" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "userId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "commitMessage" TEXT,
    "repoTreeUrl" TEXT,
    "repoCommitUrl" TEXT,
    "repoProjectDirectory" TEXT,
    "standalone" BOOLEAN NOT NULL DEFAULT false,
    "force" BOOLEAN NOT NULL DEFAULT false,
    "timestamp" TIMESTAMP(3) NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "parentRevisionId" TEXT,
    "revisionId" TEXT,
    "commitOid" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GitJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "GitJob_spaceId_createdAt_idx" ON "GitJob"("spaceId", "createdAt");

