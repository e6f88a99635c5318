-- AlterTable
ALTER TABLE "SpaceGitSync" ADD COLUMN     "version" BIGINT NOT NULL DEFAULT 1;
