-- Where a connection's counts came from: the fake server, the connection tap (the emulator) or the
-- client itself (per gRPC channel). Rows stored before were the fake's, or the tap's on emulator jobs.
ALTER TABLE "ChannelStat" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'fake';
UPDATE "ChannelStat" s SET "source" = 'tap' FROM "Cell" c JOIN "Job" j ON j."id" = c."jobId" WHERE s."cellId" = c."id" AND j."spec"->'target'->>'kind' = 'emulator';
ALTER TABLE "ChannelStat" ALTER COLUMN "source" DROP DEFAULT;
DROP INDEX "ChannelStat_cellId_connection_key";
CREATE UNIQUE INDEX "ChannelStat_cellId_source_connection_key" ON "ChannelStat"("cellId", "source", "connection");
