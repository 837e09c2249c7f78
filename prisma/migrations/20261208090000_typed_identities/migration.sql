-- Identities become typed so that no name can stand for another (packages/shared/src/identity.ts):
-- an API token is `token:<name>`, an auth proxy's user `proxy:<user>`, a person their e-mail
-- (lower-case), local mode `local`. Stored names keep their meaning: a name of a token in ApiToken was
-- that token's; any other name without "@" was an auth proxy's user (or a provider's display name,
-- which names nobody now); an e-mail address stays a person's. Finished jobs and judged gates are
-- otherwise immutable: their triggers stand aside for this rewrite alone.
ALTER TABLE "Job" DISABLE TRIGGER "Job_finished_immutable";
ALTER TABLE "Gate" DISABLE TRIGGER "Gate_judged_immutable";

CREATE FUNCTION scb_typed_identity(TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN $1 IS NULL OR $1 = 'local' OR $1 LIKE 'token:%' OR $1 LIKE 'proxy:%' THEN $1
    WHEN EXISTS (SELECT 1 FROM "ApiToken" t WHERE t."name" = $1) THEN 'token:' || $1
    WHEN position('@' IN $1) > 0 THEN lower($1)
    ELSE 'proxy:' || $1
  END
$$;

UPDATE "Job" SET "createdBy" = scb_typed_identity("createdBy"), "cancelledBy" = scb_typed_identity("cancelledBy")
  WHERE "createdBy" IS NOT NULL OR "cancelledBy" IS NOT NULL;
UPDATE "Gate" SET "createdBy" = scb_typed_identity("createdBy") WHERE "createdBy" IS NOT NULL;
UPDATE "Watch" SET "createdBy" = scb_typed_identity("createdBy") WHERE "createdBy" IS NOT NULL;

DROP FUNCTION scb_typed_identity(TEXT);
ALTER TABLE "Job" ENABLE TRIGGER "Job_finished_immutable";
ALTER TABLE "Gate" ENABLE TRIGGER "Gate_judged_immutable";
