-- AlterTable
ALTER TABLE "Revision" ADD COLUMN "changeRequestId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Revision_spaceId_changeRequestId_key" ON "Revision"("spaceId", "changeRequestId");
