import { readRoute, writeRoute } from '@/lib/auth/guard';
import type { Identity } from '@/lib/auth/identity';
import { NextResponse } from 'next/server';
import { createJob } from '@scb/db';
import { parseJobSpec } from '@scb/shared/job';
import { parseListQuery } from '@scb/shared/list-query';
import { databaseUrl, db } from '@/lib/db';
import { queryRefusal, refusedByPolicy, underQueueLimit } from '@/lib/http';
import { readSpecWithArtifacts } from '@/lib/artifacts';
import { jobUrl, listJobs, publicOrigin } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** Queues a job. 201 {id, url}; 400 {error, issues: [{path, message}]} naming every bad field. */
async function handlePOST(req: Request, _ctx: unknown, who: Identity) {
  const parsed = await readSpecWithArtifacts(req, parseJobSpec, 'job spec');
  if (!parsed.ok) return parsed.response;
  const refused = refusedByPolicy(parsed.value);
  if (refused) return refused;
  const stored = await underQueueLimit(who, (maxUnfinished) => createJob(db(), databaseUrl(), parsed.value, { createdBy: who.name, maxUnfinished }));
  if (!stored.ok) return stored.response;
  const id = stored.value;
  const url = jobUrl(id, publicOrigin());
  return NextResponse.json({ id, url }, { status: 201, headers: { Location: url } });
}

const PAGE = 100;

/** Newest first, 100 a page (`?page=2` the next 100); `?by=<name>` only the jobs that identity submitted. 400 naming a malformed parameter. */
async function handleGET(req: Request) {
  const q = parseListQuery('jobs', new URL(req.url).searchParams);
  if (!q.ok) return queryRefusal(q.issues);
  return NextResponse.json({ jobs: await listJobs(PAGE, (q.value.page - 1) * PAGE, q.value.by) });
}

export const POST = writeRoute(handlePOST);
export const GET = readRoute(handleGET);
