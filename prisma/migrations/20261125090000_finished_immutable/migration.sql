-- A finished job's rows never change: the database refuses it, whichever process asks (a runner that
-- lost its job, an API route, a script). Re-running is a new job that names the one it re-runs.
ALTER TABLE "Job" ADD COLUMN "rerunOf" TEXT;
ALTER TABLE "Job" ADD CONSTRAINT "Job_rerunOf_fkey" FOREIGN KEY ("rerunOf") REFERENCES "Job"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "Job_rerunOf_idx" ON "Job"("rerunOf");

CREATE FUNCTION scb_refuse_finished_job() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."status" IN ('succeeded', 'failed', 'cancelled') THEN
    RAISE EXCEPTION 'job % is finished (%): its stored rows do not change; re-run it as a new job', OLD."id", OLD."status" USING ERRCODE = 'SCB01';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;

CREATE FUNCTION scb_refuse_finished_cell() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."status" IN ('succeeded', 'failed', 'cancelled') THEN
    RAISE EXCEPTION 'cell % of job % is finished (%): its stored rows do not change', OLD."index", OLD."jobId", OLD."status" USING ERRCODE = 'SCB01';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;

-- A cell's result and channel stats are written once, with its finishing update, and only while it
-- runs; they go only with their unfinished cell (a cascade from a deleted cell finds no cell row).
CREATE FUNCTION scb_refuse_written_measurement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s TEXT;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION '% rows are written once: what a cell measured does not change', TG_TABLE_NAME USING ERRCODE = 'SCB01';
  END IF;
  SELECT "status" INTO s FROM "Cell" WHERE "id" = CASE WHEN TG_OP = 'INSERT' THEN NEW."cellId" ELSE OLD."cellId" END;
  IF TG_OP = 'INSERT' AND s IS DISTINCT FROM 'running' THEN
    RAISE EXCEPTION 'cell % is %: only a running cell stores what it measured', NEW."cellId", s USING ERRCODE = 'SCB01';
  END IF;
  IF TG_OP = 'DELETE' AND s IN ('succeeded', 'failed', 'cancelled') THEN
    RAISE EXCEPTION 'cell % is finished (%): what it measured does not change', OLD."cellId", s USING ERRCODE = 'SCB01';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;

CREATE TRIGGER "Job_finished_immutable" BEFORE UPDATE OR DELETE ON "Job" FOR EACH ROW EXECUTE FUNCTION scb_refuse_finished_job();
CREATE TRIGGER "Cell_finished_immutable" BEFORE UPDATE OR DELETE ON "Cell" FOR EACH ROW EXECUTE FUNCTION scb_refuse_finished_cell();
CREATE TRIGGER "CellResult_written_once" BEFORE INSERT OR UPDATE OR DELETE ON "CellResult" FOR EACH ROW EXECUTE FUNCTION scb_refuse_written_measurement();
CREATE TRIGGER "ChannelStat_written_once" BEFORE INSERT OR UPDATE OR DELETE ON "ChannelStat" FOR EACH ROW EXECUTE FUNCTION scb_refuse_written_measurement();
