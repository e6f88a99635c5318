-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "ChangeRequestStatus" AS ENUM ('draft', 'open', 'archived', 'merged');

-- CreateEnum
CREATE TYPE "ReviewStatus" AS ENUM ('approved', 'changes-requested');

-- CreateTable
CREATE TABLE "space_sequence" (
    "space_id" TEXT NOT NULL,
    "last" INTEGER NOT NULL,

    CONSTRAINT "space_sequence_pkey" PRIMARY KEY ("space_id")
);

-- CreateTable
CREATE TABLE "change_request" (
    "id" TEXT NOT NULL,
    "space_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "status" "ChangeRequestStatus" NOT NULL DEFAULT 'open',
    "subject" TEXT NOT NULL DEFAULT '',
    "agent_task_id" TEXT NOT NULL DEFAULT '',
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "revision" TEXT NOT NULL,
    "revision_initial" TEXT NOT NULL,
    "revision_merged_ancestor" TEXT,
    "revision_merged" TEXT,

    CONSTRAINT "change_request_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "requested_reviewer" (
    "change_request_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "requested_by" TEXT NOT NULL,
    "revision" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "requested_reviewer_pkey" PRIMARY KEY ("change_request_id","user_id")
);

-- CreateTable
CREATE TABLE "review" (
    "id" TEXT NOT NULL,
    "change_request_id" TEXT NOT NULL,
    "reviewer_id" TEXT NOT NULL,
    "requested_by" TEXT,
    "status" "ReviewStatus" NOT NULL,
    "revision" TEXT NOT NULL,
    "comment_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "review_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comment" (
    "id" TEXT NOT NULL,
    "space_id" TEXT NOT NULL,
    "change_request_id" TEXT,
    "review_id" TEXT,
    "posted_by" TEXT NOT NULL,
    "posted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "edited_at" TIMESTAMP(3),
    "markdown" TEXT NOT NULL,
    "node_id" TEXT NOT NULL DEFAULT '',
    "node_preview" TEXT NOT NULL DEFAULT '',
    "page_id" TEXT NOT NULL DEFAULT '',
    "page_title" TEXT NOT NULL DEFAULT '',
    "page_emoji" TEXT NOT NULL DEFAULT '',
    "page_path" TEXT NOT NULL DEFAULT '',
    "revision" TEXT NOT NULL,
    "resolved_at" TIMESTAMP(3),
    "resolved_by" TEXT,
    "reply_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reply" (
    "id" TEXT NOT NULL,
    "comment_id" TEXT NOT NULL,
    "posted_by" TEXT NOT NULL,
    "posted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "edited_at" TIMESTAMP(3),
    "markdown" TEXT NOT NULL,

    CONSTRAINT "reply_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reaction" (
    "subject_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "emoji" TEXT NOT NULL,
    "reacted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reaction_pkey" PRIMARY KEY ("subject_id","emoji","user_id")
);

-- CreateIndex
CREATE INDEX "change_request_space_id_status_number_idx" ON "change_request"("space_id", "status", "number");

-- CreateIndex
CREATE UNIQUE INDEX "change_request_space_id_number_key" ON "change_request"("space_id", "number");

-- CreateIndex
CREATE INDEX "review_change_request_id_created_at_idx" ON "review"("change_request_id", "created_at");

-- CreateIndex
CREATE INDEX "comment_space_id_posted_at_idx" ON "comment"("space_id", "posted_at");

-- CreateIndex
CREATE INDEX "comment_change_request_id_posted_at_idx" ON "comment"("change_request_id", "posted_at");

-- CreateIndex
CREATE INDEX "reply_comment_id_posted_at_idx" ON "reply"("comment_id", "posted_at");

-- AddForeignKey
ALTER TABLE "requested_reviewer" ADD CONSTRAINT "requested_reviewer_change_request_id_fkey" FOREIGN KEY ("change_request_id") REFERENCES "change_request"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review" ADD CONSTRAINT "review_change_request_id_fkey" FOREIGN KEY ("change_request_id") REFERENCES "change_request"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment" ADD CONSTRAINT "comment_change_request_id_fkey" FOREIGN KEY ("change_request_id") REFERENCES "change_request"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reply" ADD CONSTRAINT "reply_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "comment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

