import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { getJob, isInvalidJob } from '@/lib/jobs';
import { idRefusal } from '@/lib/http';

export const dynamic = 'force-dynamic';

async function handleGET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const badId = idRefusal(id, 'job');
  if (badId) return badId;
  const job = await getJob(id);
  if (!job) return NextResponse.json({ error: `no job with id "${id}"` }, { status: 404 });
  if (isInvalidJob(job)) return NextResponse.json({ error: job.invalid, issues: job.issues }, { status: 500 });
  return NextResponse.json(job);
}

export const GET = readRoute(handleGET);
