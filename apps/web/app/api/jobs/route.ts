import { NextResponse } from 'next/server';
import { createJob } from '@scb/db';
import { parseJobSpec } from '@scb/shared/spec';
import { databaseUrl, db } from '@/lib/db';
import { readJsonBody } from '@/lib/http';
import { jobUrl, listJobs, originOf } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** Queues a job. 201 {id, url}; 400 {error, issues: [{path, message}]} naming every bad field. */
export async function POST(req: Request) {
  const json = await readJsonBody(req);
  if (!json.ok) return json.response;
  const parsed = parseJobSpec(json.body);
  if (!parsed.ok) return NextResponse.json({ error: 'invalid job spec', issues: parsed.issues }, { status: 400 });
  const id = await createJob(db(), databaseUrl(), parsed.value);
  const url = jobUrl(id, originOf(req.headers));
  return NextResponse.json({ id, url }, { status: 201, headers: { Location: url } });
}

export async function GET() {
  return NextResponse.json({ jobs: await listJobs() });
}
