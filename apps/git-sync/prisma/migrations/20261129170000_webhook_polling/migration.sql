-- Polling: a link may look for new commits itself, every pollSeconds.
ALTER TABLE "GitWebhook" ADD COLUMN "pollSeconds" INTEGER, ADD COLUMN "polledAt" TIMESTAMP(3);
CREATE INDEX "GitWebhook_polling_idx" ON "GitWebhook"("polledAt") WHERE "pollSeconds" IS NOT NULL;
