-- A cell's result per operation kind of its mix (count, qps, percentiles, errors).
ALTER TABLE "CellResult" ADD COLUMN "operations" JSONB;
