import { writeRoute } from '@/lib/auth/guard';
import type { Identity } from '@/lib/auth/identity';
import { NextResponse } from 'next/server';
import { cancelJob } from '@scb/db';
import { db } from '@/lib/db';
import { idRefusal } from '@/lib/http';

export const dynamic = 'force-dynamic';

/** 202 while the runner stops the running cell; 200 when a queued job is cancelled at once. */
async function handlePOST(_req: Request, ctx: { params: Promise<{ id: string }> }, who: Identity) {
  const { id } = await ctx.params;
  const badId = idRefusal(id, 'job');
  if (badId) return badId;
  const outcome = await cancelJob(db(), id, who);
  if (outcome === 'not-found') return NextResponse.json({ error: `no job with id "${id}"` }, { status: 404 });
  if (outcome === 'forbidden') return NextResponse.json({ error: "only the job's submitter or an admin may cancel it", outcome }, { status: 403 });
  if (outcome === 'finished') return NextResponse.json({ error: 'the job has already finished', outcome }, { status: 409 });
  return NextResponse.json({ outcome }, { status: outcome === 'requested' ? 202 : 200 });
}

export const POST = writeRoute(handlePOST);
