-- Connections opened and closed while a cell measured (ms into its measured phase), where the target saw them.
ALTER TABLE "CellResult" ADD COLUMN "events" JSONB;
