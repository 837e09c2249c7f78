import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { publicOrigin } from '@/lib/jobs';
import { listReproductions } from '@/lib/reproductions';

export const dynamic = 'force-dynamic';

/** Every reproduction (filters: ?language=, ?status=) with its job spec and its newest run's expectations. */
async function handleGET(req: Request) {
  const q = new URL(req.url).searchParams;
  return NextResponse.json({ reproductions: await listReproductions(publicOrigin(), { language: q.get('language') ?? undefined, status: q.get('status') ?? undefined }) });
}

export const GET = readRoute(handleGET);
