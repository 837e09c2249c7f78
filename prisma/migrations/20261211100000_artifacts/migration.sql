-- Uploaded client builds (candidate builds), and the cells that run one.
CREATE TABLE "Artifact" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "language" TEXT NOT NULL,
    "module" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "label" TEXT,
    "bytes" INTEGER NOT NULL,
    "contents" JSONB,
    "uploadedBy" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    CONSTRAINT "Artifact_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Artifact_createdAt_idx" ON "Artifact"("createdAt");

ALTER TABLE "Cell" ADD COLUMN "clientArtifact" TEXT;
ALTER TABLE "Cell" ADD COLUMN "clientLabel" TEXT;
CREATE INDEX "Cell_clientArtifact_idx" ON "Cell"("clientArtifact") WHERE "clientArtifact" IS NOT NULL;
