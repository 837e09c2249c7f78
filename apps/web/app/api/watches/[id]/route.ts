import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { publicOrigin } from '@/lib/jobs';
import { getWatch } from '@/lib/watches';

export const dynamic = 'force-dynamic';

/** The watch with its releases, newest first: {version, predecessor, publishedAt, gates: [{scenario, gateId, status, verdict, url}]}. */
async function handleGET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const watch = await getWatch(id, publicOrigin());
  if (!watch) return NextResponse.json({ error: `no watch with id "${id}"` }, { status: 404 });
  return NextResponse.json(watch);
}

export const GET = readRoute(handleGET);
