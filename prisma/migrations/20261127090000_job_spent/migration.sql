-- What a job's cells spent on a target that costs money (Cloud Spanner): {ops, seconds}, written by the runner after each cell.
ALTER TABLE "Job" ADD COLUMN "spent" JSONB;
