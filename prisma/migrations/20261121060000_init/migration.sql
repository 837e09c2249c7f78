-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "CellStatus" AS ENUM ('pending', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "name" TEXT,
    "spec" JSONB NOT NULL,
    "cellsTotal" INTEGER NOT NULL,
    "error" TEXT,
    "environment" JSONB,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Cell" (
    "id" SERIAL NOT NULL,
    "jobId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "clientLanguage" TEXT NOT NULL,
    "clientVersion" TEXT NOT NULL,
    "configLabel" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "repeat" INTEGER NOT NULL,
    "status" "CellStatus" NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "progress" JSONB,

    CONSTRAINT "Cell_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CellResult" (
    "cellId" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "errorCount" INTEGER NOT NULL,
    "errors" JSONB NOT NULL,
    "elapsedMs" DOUBLE PRECISION NOT NULL,
    "qps" DOUBLE PRECISION NOT NULL,
    "p50Ms" DOUBLE PRECISION NOT NULL,
    "p90Ms" DOUBLE PRECISION NOT NULL,
    "p99Ms" DOUBLE PRECISION NOT NULL,
    "p999Ms" DOUBLE PRECISION NOT NULL,
    "maxMs" DOUBLE PRECISION NOT NULL,
    "histogram" TEXT NOT NULL,
    "timeline" JSONB NOT NULL,
    "cpuMs" DOUBLE PRECISION NOT NULL,
    "serverRpcs" INTEGER NOT NULL,

    CONSTRAINT "CellResult_pkey" PRIMARY KEY ("cellId")
);

-- CreateTable
CREATE TABLE "ChannelStat" (
    "id" SERIAL NOT NULL,
    "cellId" INTEGER NOT NULL,
    "connection" INTEGER NOT NULL,
    "peer" TEXT NOT NULL,
    "rpcs" INTEGER NOT NULL,
    "peakInFlight" INTEGER NOT NULL,

    CONSTRAINT "ChannelStat_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Job_createdAt_idx" ON "Job"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Cell_jobId_index_key" ON "Cell"("jobId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelStat_cellId_connection_key" ON "ChannelStat"("cellId", "connection");

-- AddForeignKey
ALTER TABLE "Cell" ADD CONSTRAINT "Cell_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CellResult" ADD CONSTRAINT "CellResult_cellId_fkey" FOREIGN KEY ("cellId") REFERENCES "Cell"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChannelStat" ADD CONSTRAINT "ChannelStat_cellId_fkey" FOREIGN KEY ("cellId") REFERENCES "Cell"("id") ON DELETE CASCADE ON UPDATE CASCADE;
