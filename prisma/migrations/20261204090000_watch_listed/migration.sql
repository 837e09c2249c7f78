-- A watch without `since` gates releases listed after it was made, a patch on an older line included:
-- it keeps what was listed then.
ALTER TABLE "Watch" ADD COLUMN "listedAtStart" JSONB;
