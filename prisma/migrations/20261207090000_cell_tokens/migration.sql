-- The fake's credentials mode: every RPC's bearer token as the fake found it (valid, missing, expired, invalid).
ALTER TABLE "CellResult" ADD COLUMN "tokens" JSONB;
