-- Jobs queued before target kinds had flags of their own carry the flag `emulator`: they need
-- `target:emulator`, the only name placement knows now (packages/shared/src/job/placement.ts).
-- graphile-worker's schema is installed apart from these migrations (ensureQueue): where it is not
-- installed yet, no job is queued and there is nothing to rewrite.
DO $$
BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    UPDATE graphile_worker._private_jobs
      SET flags = (flags - 'emulator') || '{"target:emulator": true}'::jsonb
      WHERE flags ? 'emulator';
  END IF;
END $$;
