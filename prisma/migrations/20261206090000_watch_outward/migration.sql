-- A watch's releases as the registry dates them, and those it gated that the registry no longer lists.
ALTER TABLE "Watch" ADD COLUMN "releaseDates" JSONB;
ALTER TABLE "Watch" ADD COLUMN "unlisted" JSONB;

-- One POST of one gate's verdict to one of its watch's webhooks, retried with backoff until delivered
-- or out of attempts; every attempt's outcome is kept for the watch page.
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "watchId" TEXT NOT NULL,
    "gateId" TEXT NOT NULL,
    "webhook" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastAttemptAt" TIMESTAMP(3),
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "WebhookDelivery_gateId_webhook_key" ON "WebhookDelivery"("gateId", "webhook");
CREATE INDEX "WebhookDelivery_watchId_createdAt_idx" ON "WebhookDelivery"("watchId", "createdAt");
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_watchId_fkey" FOREIGN KEY ("watchId") REFERENCES "Watch"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_gateId_fkey" FOREIGN KEY ("gateId") REFERENCES "Gate"("id") ON DELETE CASCADE ON UPDATE CASCADE;
