-- Push webhooks: the webhook of each space, the deliveries received, and what a push's job did.
ALTER TABLE "GitJob" ADD COLUMN "pushOid" TEXT, ADD COLUMN "pagesChanged" INTEGER, ADD COLUMN "skipReason" TEXT;

CREATE TABLE "GitWebhook" (
    "spaceId" TEXT NOT NULL,
    "secretSealed" BYTEA NOT NULL,
    "credentialsSealed" BYTEA,
    "userId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "repoTreeUrl" TEXT,
    "repoCommitUrl" TEXT,
    "repoProjectDirectory" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "GitWebhook_pkey" PRIMARY KEY ("spaceId")
);

CREATE TABLE "GitDelivery" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "ref" TEXT,
    "commitOid" TEXT,
    "result" TEXT NOT NULL,
    "reason" TEXT,
    "jobId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GitDelivery_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "GitDelivery_jobId_key" ON "GitDelivery"("jobId");
CREATE INDEX "GitDelivery_spaceId_createdAt_idx" ON "GitDelivery"("spaceId", "createdAt");
-- A verified delivery is taken once: a replay of its id finds it (not in Prisma's schema, which has no partial indexes).
CREATE UNIQUE INDEX "GitDelivery_verified_key" ON "GitDelivery"("spaceId", "provider", "deliveryId") WHERE "result" IN ('queued', 'ignored');
