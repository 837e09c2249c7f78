-- The saturation of every process in a cell's loop while it measured: the fake's thread and the machine.
ALTER TABLE "CellResult" ADD COLUMN "targetLoopUtilization" DOUBLE PRECISION;
ALTER TABLE "CellResult" ADD COLUMN "targetLoopDelayP99Ms" DOUBLE PRECISION;
ALTER TABLE "CellResult" ADD COLUMN "machineBusyShare" DOUBLE PRECISION;
ALTER TABLE "CellResult" ADD COLUMN "machineRunnerShare" DOUBLE PRECISION;
ALTER TABLE "CellResult" ADD COLUMN "machineLoad1" DOUBLE PRECISION;
