-- CreateEnum
CREATE TYPE "ExportState" AS ENUM ('queued', 'running', 'done', 'failed');

-- CreateTable
CREATE TABLE "export_job" (
    "id" TEXT NOT NULL,
    "space_id" TEXT NOT NULL,
    "change_request_id" TEXT NOT NULL DEFAULT '',
    "revision" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "chain" TEXT[],
    "reuse_key" TEXT,
    "state" "ExportState" NOT NULL DEFAULT 'queued',
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "pages_done" INTEGER NOT NULL DEFAULT 0,
    "pages_total" INTEGER NOT NULL DEFAULT 0,
    "files_done" INTEGER NOT NULL DEFAULT 0,
    "files_total" INTEGER NOT NULL DEFAULT 0,
    "error_code" INTEGER,
    "error" TEXT,
    "data" BYTEA,
    "filename" TEXT,
    "content_type" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "export_job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "export_job_reuse_key_key" ON "export_job"("reuse_key");

-- CreateIndex
CREATE INDEX "export_job_expires_at_idx" ON "export_job"("expires_at");

