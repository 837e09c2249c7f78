-- A cost cap (real Spanner) that ended the cell early: 'ops' or 'time'; null when none did.
ALTER TABLE "CellResult" ADD COLUMN "capped" TEXT;
