-- CreateTable
CREATE TABLE "ClientVersion" (
    "language" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "message" TEXT,
    "checkedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClientVersion_pkey" PRIMARY KEY ("language","version")
);
