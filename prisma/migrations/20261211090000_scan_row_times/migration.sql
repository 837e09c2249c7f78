-- A scan's time to its first row and to its last (p50, p99, ms), and the bytes the target sent the driver on the wire while measuring.
ALTER TABLE "CellResult" ADD COLUMN "firstRowP50Ms" DOUBLE PRECISION, ADD COLUMN "firstRowP99Ms" DOUBLE PRECISION, ADD COLUMN "lastRowP50Ms" DOUBLE PRECISION, ADD COLUMN "lastRowP99Ms" DOUBLE PRECISION, ADD COLUMN "wireBytes" DOUBLE PRECISION;
