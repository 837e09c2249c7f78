-- A gate's arm is a field of its cells; gates stored before named their arms by configuration label.
ALTER TABLE "Cell" ADD COLUMN "arm" TEXT;
UPDATE "Cell" SET "arm" = "configLabel" WHERE "configLabel" IN ('baseline', 'candidate') AND "jobId" IN (SELECT "jobId" FROM "Gate");
