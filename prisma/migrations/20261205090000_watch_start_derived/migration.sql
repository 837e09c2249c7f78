-- A watch's starting release is the newest of what it found listed (listedAtStart): not stored twice.
UPDATE "Watch" SET "listedAtStart" = to_jsonb(ARRAY["startAfter"]) WHERE "listedAtStart" IS NULL AND "startAfter" IS NOT NULL;
ALTER TABLE "Watch" DROP COLUMN "startAfter";
