-- CreateTable
CREATE TABLE "OidcProvider" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecret" BYTEA NOT NULL,
    "defaultTeamId" TEXT,
    "defaultRole" "Role" DEFAULT 'read',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OidcProvider_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SsoReplayKey" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SsoReplayKey_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "OidcProvider_organizationId_createdAt_idx" ON "OidcProvider"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "SsoReplayKey_expiresAt_idx" ON "SsoReplayKey"("expiresAt");

-- AddForeignKey
ALTER TABLE "OidcProvider" ADD CONSTRAINT "OidcProvider_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OidcProvider" ADD CONSTRAINT "OidcProvider_defaultTeamId_fkey" FOREIGN KEY ("defaultTeamId") REFERENCES "Team"("id") ON DELETE SET NULL ON UPDATE CASCADE;

