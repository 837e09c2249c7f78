-- Release watches: each of a language's releases gated against its predecessor on a set of scenarios.
CREATE TABLE "Watch" (
  "id" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "spec" JSONB NOT NULL,
  "createdBy" TEXT,
  "startAfter" TEXT,
  CONSTRAINT "Watch_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Watch_createdAt_idx" ON "Watch"("createdAt");

ALTER TABLE "Gate" ADD COLUMN "watchId" TEXT, ADD COLUMN "watchVersion" TEXT;
ALTER TABLE "Gate" ADD CONSTRAINT "Gate_watchId_fkey" FOREIGN KEY ("watchId") REFERENCES "Watch"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "Gate_watchId_watchVersion_idx" ON "Gate"("watchId", "watchVersion");
