-- A watch's gates count against its creator's queue limit, and a watch can be stopped.
ALTER TABLE "Watch" ADD COLUMN "queueLimit" INTEGER;
ALTER TABLE "Watch" ADD COLUMN "stoppedAt" TIMESTAMP(3);
ALTER TABLE "Watch" ADD COLUMN "stoppedBy" TEXT;
-- Watches made before: their creators' polls are limited like their jobs, at the default SCB_MAX_QUEUED_JOBS
-- (local mode's single user, "local", has no limit).
UPDATE "Watch" SET "queueLimit" = 20 WHERE "createdBy" IS NOT NULL AND "createdBy" <> 'local';
CREATE INDEX "Watch_createdBy_stoppedAt_idx" ON "Watch"("createdBy", "stoppedAt");
