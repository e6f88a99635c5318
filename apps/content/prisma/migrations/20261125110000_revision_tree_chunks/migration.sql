-- Revisions hold their pages and files as lists of content-addressed chunks (TreeChunk) shared
-- with the revisions that hold the same runs, instead of the whole tree in each row. Rows written
-- before keep their `tree` and are read from it, new rows leave it null.

-- CreateTable
CREATE TABLE "TreeChunk" (
    "id" TEXT NOT NULL,
    "content" JSON NOT NULL,

    CONSTRAINT "TreeChunk_pkey" PRIMARY KEY ("id")
);

-- AlterTable
ALTER TABLE "Revision" ALTER COLUMN "tree" DROP NOT NULL,
ALTER COLUMN "tree" DROP DEFAULT,
ADD COLUMN     "pageChunks" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "fileChunks" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "variables" JSONB NOT NULL DEFAULT '{}';
