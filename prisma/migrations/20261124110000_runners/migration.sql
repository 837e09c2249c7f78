-- Runners register and heartbeat; a job records the runner running it and how often it was resumed
-- after a runner died; a cell counts its runs.
CREATE TABLE "Runner" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "cores" INTEGER NOT NULL,
    "memoryGiB" INTEGER NOT NULL,
    "languages" JSONB NOT NULL,
    "emulator" BOOLEAN NOT NULL,
    "spanner" BOOLEAN NOT NULL,
    "labels" JSONB NOT NULL,
    "commit" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stoppedAt" TIMESTAMP(3),
    "stopReason" TEXT,
    "jobId" TEXT,
    "cellIndex" INTEGER,
    CONSTRAINT "Runner_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Runner_heartbeatAt_idx" ON "Runner"("heartbeatAt");
ALTER TABLE "Job" ADD COLUMN "runnerId" TEXT;
ALTER TABLE "Job" ADD COLUMN "resumes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Cell" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
-- Cells already finished ran once.
UPDATE "Cell" SET "attempts" = 1 WHERE "status" NOT IN ('pending');
