-- CreateTable
CREATE TABLE "OpenApiSpec" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "sourceUrl" TEXT,
    "visibility" TEXT NOT NULL DEFAULT 'private',
    "lastVersionId" TEXT,
    "lastProcessedAt" TIMESTAMP(3),
    "lastProcessErrorCode" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OpenApiSpec_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OpenApiSpecVersion" (
    "id" TEXT NOT NULL,
    "specId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sourceUrl" TEXT,
    "version" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "json" TEXT NOT NULL,

    CONSTRAINT "OpenApiSpecVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "OpenApiSpec_organizationId_slug_key" ON "OpenApiSpec"("organizationId", "slug");

-- CreateIndex
CREATE INDEX "OpenApiSpec_organizationId_createdAt_id_idx" ON "OpenApiSpec"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "OpenApiSpecVersion_specId_createdAt_id_idx" ON "OpenApiSpecVersion"("specId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "OpenApiSpecVersion" ADD CONSTRAINT "OpenApiSpecVersion_specId_fkey" FOREIGN KEY ("specId") REFERENCES "OpenApiSpec"("id") ON DELETE CASCADE ON UPDATE CASCADE;
