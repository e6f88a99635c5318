-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "customization" JSONB;
