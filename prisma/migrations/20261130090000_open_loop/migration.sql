-- Open-loop cells (a job's arrivalRates): latencies from the actual start beside the corrected ones,
-- the driver's schedule lag, and the operations that waited for the outstanding cap. Null for closed loops.
ALTER TABLE "CellResult" ADD COLUMN "uncorrected" JSONB,
  ADD COLUMN "scheduleLagP99Ms" DOUBLE PRECISION,
  ADD COLUMN "scheduleLagMaxMs" DOUBLE PRECISION,
  ADD COLUMN "outstandingCapWaits" INTEGER;
