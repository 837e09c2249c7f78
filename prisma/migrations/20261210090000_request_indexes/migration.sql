-- Indexes for lists that grow with the years a team keeps its history, so that no page or API route
-- reads a whole table: the newest run of each reproduction (/reproductions), and the newest finished
-- verdicts of the watches' gates (the feeds).
CREATE INDEX "Job_reproduction_createdAt_idx" ON "Job" ((spec->>'reproduction'), "createdAt" DESC, id) WHERE spec->>'reproduction' IS NOT NULL;

CREATE INDEX "Gate_watch_verdicts_idx" ON "Gate" ("finishedAt" DESC, id) WHERE "watchId" IS NOT NULL AND verdict IS NOT NULL AND "finishedAt" IS NOT NULL;

CREATE INDEX "Gate_watchId_finishedAt_idx" ON "Gate" ("watchId", "finishedAt" DESC, id) WHERE verdict IS NOT NULL AND "finishedAt" IS NOT NULL;
