// A release watch's webhooks: each finished verdict of one of its gates is one delivery per webhook the
// watch names, queued with the verdict and retried with backoff by the runners' side worker.
import { parseWatchSpec } from '@scb/shared';
import type { Db } from './client';
import type { Prisma } from '../generated/prisma/client';
import { newJobId } from './jobs';

/** The graphile-worker task that POSTs one delivery. */
export const DELIVER_WEBHOOK_TASK = 'deliver_webhook';

/** Queues an attempt of a delivery at `runAt` (now when omitted); a second add of a pending attempt is a no-op. */
export async function enqueueDeliveryIn(tx: Prisma.TransactionClient, deliveryId: string, runAt?: Date): Promise<void> {
  await tx.$queryRaw`SELECT graphile_worker.add_job(${DELIVER_WEBHOOK_TASK}, json_build_object('deliveryId', ${deliveryId}::text), max_attempts => 1, job_key => ${`webhook:${deliveryId}`}, run_at => ${runAt ?? new Date()}::timestamptz)::text`;
}

/**
 * The deliveries a gate's verdict makes, inside the transaction that stores the verdict: one per webhook
 * its watch names, once however often the verdict is stored (a unique key).
 */
export async function queueDeliveriesIn(tx: Prisma.TransactionClient, gateId: string): Promise<void> {
  const gate = await tx.gate.findUnique({ where: { id: gateId }, select: { watchId: true, watch: { select: { spec: true } } } });
  if (!gate?.watchId || !gate.watch) return;
  const spec = parseWatchSpec(gate.watch.spec);
  if (!spec.ok) return;
  for (const webhook of spec.value.webhooks) {
    const id = newJobId();
    const created = await tx.webhookDelivery.createMany({ data: [{ id, watchId: gate.watchId, gateId, webhook }], skipDuplicates: true });
    if (created.count) await enqueueDeliveryIn(tx, id);
  }
}

/** A delivery with what its POST says: the gate and its watch. */
export async function getDelivery(db: Db, id: string) {
  return db.webhookDelivery.findUnique({ where: { id }, include: { gate: { select: { id: true, watchVersion: true, watchScenario: true } } } });
}

/**
 * Records one attempt: delivered, or failed with `error` and, while attempts remain, queued again
 * after `backoffMs` × 2^(attempts − 1). Returns what became of the delivery.
 */
export async function recordDeliveryAttempt(
  db: Db,
  id: string,
  error: string | null,
  { maxAttempts, backoffMs }: { maxAttempts: number; backoffMs: number },
): Promise<{ status: 'delivered' | 'pending' | 'failed'; attempts: number; nextAt: Date | null }> {
  return db.$transaction(async (tx) => {
    const d = await tx.webhookDelivery.update({ where: { id }, data: { attempts: { increment: 1 }, lastAttemptAt: new Date(), lastError: error } });
    if (error === null) {
      await tx.webhookDelivery.update({ where: { id }, data: { status: 'delivered', deliveredAt: new Date() } });
      return { status: 'delivered' as const, attempts: d.attempts, nextAt: null };
    }
    if (d.attempts >= maxAttempts) {
      await tx.webhookDelivery.update({ where: { id }, data: { status: 'failed' } });
      return { status: 'failed' as const, attempts: d.attempts, nextAt: null };
    }
    const nextAt = new Date(Date.now() + backoffMs * 2 ** (d.attempts - 1));
    await enqueueDeliveryIn(tx, id, nextAt);
    return { status: 'pending' as const, attempts: d.attempts, nextAt };
  });
}

/** A watch's deliveries, newest first, for its page. */
export async function listDeliveries(db: Db, watchId: string, limit = 50) {
  return db.webhookDelivery.findMany({
    where: { watchId },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: limit,
    select: {
      id: true,
      createdAt: true,
      gateId: true,
      webhook: true,
      status: true,
      attempts: true,
      lastAttemptAt: true,
      lastError: true,
      deliveredAt: true,
      gate: { select: { watchVersion: true, watchScenario: true, verdict: true } },
    },
  });
}
