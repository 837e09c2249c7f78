import { readRoute, writeRoute } from '@/lib/auth/guard';
import type { Identity } from '@/lib/auth/identity';
import { NextResponse } from 'next/server';
import { createWatch, WatchBackfillTooLarge, WatchLimitError } from '@scb/db';
import { publishDates, publishedVersions } from '@scb/languages';
import { releasePairs } from '@scb/shared/watch';
import { backfillLimitRefusal, watchLimitRefusal, webhookIssues } from '@scb/shared/policy';
import { gateJobSpec } from '@scb/shared/gate';
import { parseJobSpec } from '@scb/shared/job';
import { parseWatchSpec, watchGateSpec } from '@scb/shared/watch';
import { databaseUrl, db } from '@/lib/db';
import { policyResponse, queueLimitOf, readSpec, refusedByPolicy, underQueueLimit } from '@/lib/http';
import { webPolicy } from '@/lib/env';
import { publicOrigin } from '@/lib/jobs';
import { listWatches, watchUrl } from '@/lib/watches';

export const dynamic = 'force-dynamic';

/**
 * Creates a watch and queues its backfill (a gate per release from `since` and scenario). 201 {id, url,
 * gates}; 400 naming every bad field, or a backfill too large (for this server, or for the creator's
 * SCB_MAX_QUEUED_JOBS); 429 when the creator has SCB_MAX_WATCHES watches, or too few free slots of
 * SCB_MAX_QUEUED_JOBS for the backfill now; 502 when the registry cannot be read.
 */
async function handlePOST(req: Request, _ctx: unknown, who: Identity) {
  const parsed = await readSpec(req, parseWatchSpec, 'watch spec');
  if (!parsed.ok) return parsed.response;
  const watch = parsed.value;
  // Each scenario's job is checked as the gate's would be, on a placeholder pair: the operator's policy bounds it.
  for (const scenario of watch.scenarios) {
    const job = parseJobSpec(gateJobSpec(watchGateSpec(watch, scenario, { version: '0.0.1', predecessor: '0.0.0' })));
    if (!job.ok) return NextResponse.json({ error: 'a scenario makes an invalid job spec', issues: job.issues }, { status: 400 });
    const refused = refusedByPolicy(job.value);
    if (refused) return refused;
  }
  const unknownWebhooks = webhookIssues(webPolicy(), watch.webhooks);
  if (unknownWebhooks.length) return policyResponse(unknownWebhooks);
  let listed: string[];
  try {
    listed = await publishedVersions(watch.language);
  } catch (e) {
    return NextResponse.json({ error: (e as Error).message }, { status: 502 });
  }
  const backfill = watch.since ? releasePairs(listed, watch).map((r) => r.version) : [];
  // Its gates are its creator's jobs: a backfill larger than their queue limit could never be queued.
  const overLimit = queueLimitOf(who) === undefined ? null : backfillLimitRefusal(webPolicy(), backfill.length * watch.scenarios.length);
  if (overLimit) return NextResponse.json({ error: overLimit, issues: [{ path: 'since', message: overLimit }] }, { status: 400 });
  // The backfill's publish dates where the registry gives them; without them the releases are only undated.
  const dates = await publishDates(watch.language, backfill.slice(0, 60)).catch(() => ({}));
  // Local mode has one user and no limits.
  const maxWatches = who.kind === 'local' ? undefined : webPolicy().limits.watchesPerIdentity;
  try {
    const stored = await underQueueLimit(who, (max) => createWatch(db(), databaseUrl(), watch, listed, { createdBy: who.name, dates, maxUnfinished: max, maxWatches }));
    if (!stored.ok) return stored.response;
    const { id, gates } = stored.value;
    const url = watchUrl(id, publicOrigin());
    return NextResponse.json({ id, url, gates }, { status: 201, headers: { Location: url } });
  } catch (e) {
    if (e instanceof WatchBackfillTooLarge) return NextResponse.json({ error: e.message, issues: [{ path: 'since', message: e.message }] }, { status: 400 });
    if (e instanceof WatchLimitError) return NextResponse.json({ error: watchLimitRefusal(webPolicy(), e.watches) }, { status: 429 });
    throw e;
  }
}

async function handleGET() {
  return NextResponse.json({ watches: await listWatches(publicOrigin()) });
}

export const POST = writeRoute(handlePOST);
export const GET = readRoute(handleGET);
