-- The across-versions view reads these summaries instead of every stored cell of a scenario. They are
-- derived from the immutable results: filled by the migrator right after this migration (and by
-- `npm run db:rebuild-summaries`), then kept up to date in the transaction that stores a cell's result.
CREATE TABLE "TrendScenario" (
    "language" TEXT NOT NULL,
    "scenarioKey" TEXT NOT NULL,
    "jobs" INTEGER NOT NULL,
    "concurrencies" JSONB NOT NULL,
    "specJobId" TEXT NOT NULL,
    CONSTRAINT "TrendScenario_pkey" PRIMARY KEY ("language", "scenarioKey")
);

CREATE TABLE "TrendPoint" (
    "language" TEXT NOT NULL,
    "scenarioKey" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "operation" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "configLabel" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "jobs" INTEGER NOT NULL,
    "median" DOUBLE PRECISION NOT NULL,
    "min" DOUBLE PRECISION NOT NULL,
    "max" DOUBLE PRECISION NOT NULL,
    "clientBound" INTEGER NOT NULL,
    "harnessBound" INTEGER NOT NULL,
    "optionSets" TEXT[],
    "sample" JSONB NOT NULL,
    "values" DOUBLE PRECISION[],
    CONSTRAINT "TrendPoint_pkey" PRIMARY KEY ("language", "scenarioKey", "concurrency", "operation", "metric", "configLabel", "version")
);
