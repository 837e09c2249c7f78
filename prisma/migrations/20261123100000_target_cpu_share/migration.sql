-- A target in a process of its own (the emulator): its CPU while the cell measured, as a share of all cores.
ALTER TABLE "CellResult" ADD COLUMN "targetCpuShare" DOUBLE PRECISION;
