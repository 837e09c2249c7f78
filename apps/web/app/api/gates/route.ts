import { readRoute, writeRoute } from '@/lib/auth/guard';
import type { Identity } from '@/lib/auth/identity';
import { NextResponse } from 'next/server';
import { createGate } from '@scb/db';
import { gateJobSpec, parseGateSpec } from '@scb/shared/gate';
import { parseJobSpec } from '@scb/shared/job';
import { parseListQuery } from '@scb/shared/list-query';
import { databaseUrl, db } from '@/lib/db';
import { queryRefusal, refusedByPolicy, underQueueLimit } from '@/lib/http';
import { readSpecWithArtifacts } from '@/lib/artifacts';
import { gateUrl, listGates } from '@/lib/gates';
import { jobUrl, publicOrigin } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** Queues a gate. 201 {id, url, jobId, jobUrl}; 400 {error, issues: [{path, message}]} naming every bad field. */
async function handlePOST(req: Request, _ctx: unknown, who: Identity) {
  const parsed = await readSpecWithArtifacts(req, parseGateSpec, 'gate spec');
  if (!parsed.ok) return parsed.response;
  // The job the gate runs is validated as any job is: a gate whose overrides make a bad job is the caller's error.
  const job = parseJobSpec(gateJobSpec(parsed.value));
  if (!job.ok) return NextResponse.json({ error: 'the gate makes an invalid job spec', issues: job.issues }, { status: 400 });
  const refused = refusedByPolicy(job.value);
  if (refused) return refused;
  const stored = await underQueueLimit(who, (maxUnfinished) => createGate(db(), databaseUrl(), parsed.value, { createdBy: who.name, maxUnfinished }));
  if (!stored.ok) return stored.response;
  const { id, jobId } = stored.value;
  const origin = publicOrigin();
  const url = gateUrl(id, origin);
  return NextResponse.json({ id, url, jobId, jobUrl: jobUrl(jobId, origin) }, { status: 201, headers: { Location: url } });
}

const PAGE = 100;

/** Newest first, 100 a page (`?page=2` the next 100); 400 naming a malformed parameter. */
async function handleGET(req: Request) {
  const q = parseListQuery('gates', new URL(req.url).searchParams);
  if (!q.ok) return queryRefusal(q.issues);
  return NextResponse.json({ gates: await listGates(PAGE, (q.value.page - 1) * PAGE) });
}

export const POST = writeRoute(handlePOST);
export const GET = readRoute(handleGET);
