import { readRoute, writeRoute } from '@/lib/auth/guard';
import type { Identity } from '@/lib/auth/identity';
import { NextResponse } from 'next/server';
import { stopWatch } from '@scb/db';
import { db } from '@/lib/db';
import { queryRefusal } from '@/lib/http';
import { publicOrigin } from '@/lib/jobs';
import { parseListQuery } from '@scb/shared/list-query';
import { getWatch } from '@/lib/watches';

export const dynamic = 'force-dynamic';

/**
 * The watch with a page of its releases, newest first: {version, predecessor, publishedAt, gates:
 * [{scenario, gateId, status, verdict, url}]}, `pageSize` a page (`?page=2` the next ones) of
 * `releaseCount`; 400 naming a malformed `page`.
 */
async function handleGET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const q = parseListQuery('watch', new URL(req.url).searchParams);
  if (!q.ok) return queryRefusal(q.issues);
  const watch = await getWatch(id, publicOrigin(), { page: q.value.page });
  if (!watch) return NextResponse.json({ error: `no watch with id "${id}"` }, { status: 404 });
  return NextResponse.json(watch);
}

/**
 * Stops the watch: no more polls, its queued gates cancelled, its judged ones (and their verdicts, feed
 * and badge) kept. 200 {id, stoppedAt, cancelled, kept}, again for one already stopped; 403 for anyone
 * but its creator or an admin; 404 for an unknown id.
 */
async function handleDELETE(_req: Request, ctx: { params: Promise<{ id: string }> }, who: Identity) {
  const { id } = await ctx.params;
  const outcome = await stopWatch(db(), id, who);
  if (outcome.kind === 'not-found') return NextResponse.json({ error: `no watch with id "${id}"` }, { status: 404 });
  if (outcome.kind === 'forbidden') return NextResponse.json({ error: "only the watch's creator or an admin may delete it" }, { status: 403 });
  const { stoppedAt, cancelled, kept, already } = outcome;
  return NextResponse.json({ id, stoppedAt: stoppedAt.toISOString(), cancelled, kept, already });
}

export const GET = readRoute(handleGET);
export const DELETE = writeRoute(handleDELETE);
