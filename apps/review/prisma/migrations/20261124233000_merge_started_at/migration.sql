-- AlterTable
ALTER TABLE "change_request" ADD COLUMN "merge_started_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "change_request_merge_started_at_idx" ON "change_request"("merge_started_at");
