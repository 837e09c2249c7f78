-- Watches are polled: one gate per release and scenario (a unique key, so two runners polling at once
-- queue it once), and the last poll's time and failure.
ALTER TABLE "Gate" ADD COLUMN "watchScenario" INTEGER;
CREATE UNIQUE INDEX "Gate_watchId_watchVersion_watchScenario_key" ON "Gate"("watchId", "watchVersion", "watchScenario");
ALTER TABLE "Watch" ADD COLUMN "polledAt" TIMESTAMP(3), ADD COLUMN "pollError" TEXT;
