-- The fake's own added time per RPC beyond its configured latency, per cell.
ALTER TABLE "CellResult" ADD COLUMN "targetAddedP50Ms" DOUBLE PRECISION;
ALTER TABLE "CellResult" ADD COLUMN "targetAddedP99Ms" DOUBLE PRECISION;
