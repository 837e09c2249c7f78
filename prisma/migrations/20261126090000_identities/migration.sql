-- Who wrote what: a job's and a gate's submitter, who cancelled a job; API tokens stored as hashes.
ALTER TABLE "Job" ADD COLUMN "createdBy" TEXT;
ALTER TABLE "Job" ADD COLUMN "cancelledBy" TEXT;
CREATE INDEX "Job_createdBy_idx" ON "Job"("createdBy");
ALTER TABLE "Gate" ADD COLUMN "createdBy" TEXT;

CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "admin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ApiToken_name_key" ON "ApiToken"("name");
CREATE UNIQUE INDEX "ApiToken_hash_key" ON "ApiToken"("hash");

-- A judged gate never changes, like a finished job: its verdict is what CI acted on.
CREATE FUNCTION scb_refuse_judged_gate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."verdict" IS NOT NULL THEN
    RAISE EXCEPTION 'gate % is judged (%): its verdict does not change; post the gate again for a new one', OLD."id", OLD."verdict" USING ERRCODE = 'SCB01';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER "Gate_judged_immutable" BEFORE UPDATE OR DELETE ON "Gate" FOR EACH ROW EXECUTE FUNCTION scb_refuse_judged_gate();
