-- CreateTable
CREATE TABLE "space_counters_version" (
    "space_id" TEXT NOT NULL,
    "version" BIGINT NOT NULL,

    CONSTRAINT "space_counters_version_pkey" PRIMARY KEY ("space_id")
);
