import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { parseListQuery } from '@scb/shared/list-query';
import { queryRefusal } from '@/lib/http';
import { publicOrigin } from '@/lib/jobs';
import { listReproductions } from '@/lib/reproductions';

export const dynamic = 'force-dynamic';

/** Every reproduction (filters: ?language=, ?status=) with its job spec and its newest run's expectations; 400 naming a malformed filter. */
async function handleGET(req: Request) {
  const q = parseListQuery('reproductions', new URL(req.url).searchParams);
  if (!q.ok) return queryRefusal(q.issues);
  return NextResponse.json({ reproductions: await listReproductions(publicOrigin(), q.value) });
}

export const GET = readRoute(handleGET);
