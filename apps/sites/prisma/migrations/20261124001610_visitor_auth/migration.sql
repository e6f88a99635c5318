-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "visitorAuthBackend" TEXT NOT NULL DEFAULT 'custom',
ADD COLUMN     "visitorFallbackUrl" TEXT,
ADD COLUMN     "visitorKeySealed" BYTEA;

