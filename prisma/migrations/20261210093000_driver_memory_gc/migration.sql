-- The driver process's peak resident memory (bytes) and its runtime's garbage collection time over the measured phase (ms).
ALTER TABLE "CellResult" ADD COLUMN "peakRssBytes" DOUBLE PRECISION, ADD COLUMN "gcMs" DOUBLE PRECISION;
