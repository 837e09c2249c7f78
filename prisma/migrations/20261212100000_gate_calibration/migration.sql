-- Gate scenarios' calibrations (issue 38): false alarms of A/A gates, detections of injected regressions.
CREATE TABLE "GateCalibration" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "scenario" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "machine" TEXT NOT NULL,
    "cores" INTEGER NOT NULL,
    "commit" TEXT NOT NULL,
    "repeats" INTEGER NOT NULL,
    "criteria" JSONB NOT NULL,
    "aaRuns" INTEGER NOT NULL,
    "aaFalseAlarms" INTEGER NOT NULL,
    "aaInconclusive" INTEGER NOT NULL,
    "sizes" JSONB NOT NULL,
    "details" JSONB NOT NULL,
    "createdBy" TEXT,
    CONSTRAINT "GateCalibration_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "GateCalibration_scenario_language_createdAt_idx" ON "GateCalibration"("scenario", "language", "createdAt");
