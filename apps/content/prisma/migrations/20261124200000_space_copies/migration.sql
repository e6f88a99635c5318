-- CreateTable
CREATE TABLE "SpaceCopy" (
    "spaceId" TEXT NOT NULL,
    "countersVersion" BIGINT,
    "comments" INTEGER NOT NULL DEFAULT 0,
    "changeRequests" INTEGER NOT NULL DEFAULT 0,
    "changeRequestsOpen" INTEGER NOT NULL DEFAULT 0,
    "changeRequestsDraft" INTEGER NOT NULL DEFAULT 0,
    "gitVersion" BIGINT,
    "gitLink" JSONB,

    CONSTRAINT "SpaceCopy_pkey" PRIMARY KEY ("spaceId")
);

-- AddForeignKey
ALTER TABLE "SpaceCopy" ADD CONSTRAINT "SpaceCopy_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;
