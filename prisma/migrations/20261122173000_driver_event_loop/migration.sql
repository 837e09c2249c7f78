-- A one-event-loop driver's (Node) loop while measuring: busy share and delay p99.
ALTER TABLE "CellResult" ADD COLUMN "driverLoopUtilization" DOUBLE PRECISION;
ALTER TABLE "CellResult" ADD COLUMN "driverLoopDelayP99Ms" DOUBLE PRECISION;
