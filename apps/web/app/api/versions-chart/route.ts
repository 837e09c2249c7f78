import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { parseTrendQuery } from '@scb/shared/trend';
import { loadVersionsView } from '@/lib/versions';

export const dynamic = 'force-dynamic';

/**
 * The data of /versions as JSON: GET /api/versions-chart?language=java&scenario=<key>&metric=qps&concurrency=400.
 * Every parameter is optional (defaults as on the page); 400 {error, issues: [{path, message}]} names
 * each malformed, unknown or repeated parameter, and one that selects no succeeded cell.
 */
async function handleGET(req: Request) {
  const { value, issues } = parseTrendQuery(new URL(req.url).searchParams, true);
  if (issues.length) return NextResponse.json({ error: 'invalid parameters', issues }, { status: 400 });
  const view = await loadVersionsView(value);
  if (view.fallbacks.length) return NextResponse.json({ error: 'the selection matches no succeeded cells', issues: view.fallbacks }, { status: 400 });
  const { fallbacks: _f, ...body } = view;
  return NextResponse.json(body);
}

export const GET = readRoute(handleGET);
