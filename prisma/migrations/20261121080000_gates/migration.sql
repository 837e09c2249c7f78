-- CreateTable
CREATE TABLE "Gate" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "spec" JSONB NOT NULL,
    "jobId" TEXT NOT NULL,
    "verdict" TEXT,
    "evaluation" JSONB,

    CONSTRAINT "Gate_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Gate_jobId_key" ON "Gate"("jobId");

-- CreateIndex
CREATE INDEX "Gate_createdAt_idx" ON "Gate"("createdAt");

-- AddForeignKey
ALTER TABLE "Gate" ADD CONSTRAINT "Gate_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
