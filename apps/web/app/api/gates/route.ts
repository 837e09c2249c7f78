import { NextResponse } from 'next/server';
import { createGate } from '@scb/db';
import { parseGateSpec } from '@scb/shared/gate';
import { databaseUrl, db } from '@/lib/db';
import { apiRoute, readSpec } from '@/lib/http';
import { gateUrl, listGates } from '@/lib/gates';
import { jobUrl, originOf } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** Queues a gate. 201 {id, url, jobId, jobUrl}; 400 {error, issues: [{path, message}]} naming every bad field. */
async function handlePOST(req: Request) {
  const parsed = await readSpec(req, parseGateSpec, 'gate spec');
  if (!parsed.ok) return parsed.response;
  let created: { id: string; jobId: string };
  try {
    created = await createGate(db(), databaseUrl(), parsed.value);
  } catch (e) {
    return NextResponse.json({ error: `the gate could not be stored or queued: ${(e as Error).message}` }, { status: 503 });
  }
  const { id, jobId } = created;
  const origin = originOf(req.headers);
  const url = gateUrl(id, origin);
  return NextResponse.json({ id, url, jobId, jobUrl: jobUrl(jobId, origin) }, { status: 201, headers: { Location: url } });
}

async function handleGET() {
  return NextResponse.json({ gates: await listGates() });
}

export const POST = apiRoute(handlePOST);
export const GET = apiRoute(handleGET);
