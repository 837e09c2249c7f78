import { NextResponse } from 'next/server';
import { createJob } from '@scb/db';
import { parseJobSpec } from '@scb/shared/spec';
import { databaseUrl, db } from '@/lib/db';
import { apiRoute, readSpec } from '@/lib/http';
import { jobUrl, listJobs, originOf } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** Queues a job. 201 {id, url}; 400 {error, issues: [{path, message}]} naming every bad field. */
async function handlePOST(req: Request) {
  const parsed = await readSpec(req, parseJobSpec, 'job spec');
  if (!parsed.ok) return parsed.response;
  const id = await createJob(db(), databaseUrl(), parsed.value);
  const url = jobUrl(id, originOf(req.headers));
  return NextResponse.json({ id, url }, { status: 201, headers: { Location: url } });
}

async function handleGET() {
  return NextResponse.json({ jobs: await listJobs() });
}

export const POST = apiRoute(handlePOST);
export const GET = apiRoute(handleGET);
