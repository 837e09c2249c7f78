-- A fake cell measured on the wire (target.measureOnWire): its added time as the connection tap saw it.
ALTER TABLE "CellResult" ADD COLUMN "targetWireAddedP50Ms" DOUBLE PRECISION,
  ADD COLUMN "targetWireAddedP99Ms" DOUBLE PRECISION;
