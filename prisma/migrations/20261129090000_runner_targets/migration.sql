-- A runner offers target kinds by name (the TargetPlugins it has available) instead of one column per
-- kind: Runner.targets replaces Runner.emulator and Runner.spanner. Every runner had the fake.
ALTER TABLE "Runner" ADD COLUMN "targets" JSONB;
UPDATE "Runner" SET "targets" = to_jsonb(array_remove(ARRAY['fake', CASE WHEN "emulator" THEN 'emulator' END, CASE WHEN "spanner" THEN 'spanner' END], NULL));
ALTER TABLE "Runner" ALTER COLUMN "targets" SET NOT NULL;
ALTER TABLE "Runner" DROP COLUMN "emulator", DROP COLUMN "spanner";
