import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { compareHref, compareNoteText, compareRefusalText, comparisonDescription, comparisonTitle } from '@scb/shared/compare';
import { loadComparison } from '@/lib/compare';
import { publicOrigin } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/**
 * GET /api/compare?jobs=<baselineId>,<candidateId>[,...] or ?cells=<jobId>:<cellIndex>,...[&mismatch=allow]
 * 200: the comparison (status ok / warned / refused, series, rows with medians and ratios, notes);
 * 400 {error, issues: [{path, message}]} for a bad or missing parameter; 404 the same for unknown jobs or cells.
 */
async function handleGET(req: Request) {
  const url = new URL(req.url);
  const load = await loadComparison(url.searchParams);
  switch (load.kind) {
    case 'empty':
      return NextResponse.json(
        {
          error: 'nothing to compare: give jobs=<baselineId>,<candidateId>[,...] or cells=<jobId>:<cellIndex>,<jobId>:<cellIndex>',
          issues: [{ path: 'jobs', message: 'required (or cells)' }],
        },
        { status: 400 },
      );
    case 'invalid':
      return NextResponse.json({ error: 'invalid comparison query', issues: load.issues }, { status: 400 });
    case 'not-found':
      return NextResponse.json({ error: 'unknown job or cell', issues: load.issues }, { status: 404 });
    case 'unreadable':
      return NextResponse.json({ error: 'a selected job is stored but invalid', issues: load.issues }, { status: 500 });
    case 'ok': {
      const c = load.comparison;
      return NextResponse.json({
        url: new URL(compareHref(load.selection), publicOrigin()).toString(),
        selection: load.selection,
        title: comparisonTitle(c),
        description: comparisonDescription(c),
        ...c,
        refusal: c.refusal && { ...c.refusal, message: compareRefusalText(c.refusal, c) },
        notes: c.notes.map((n) => ({ ...n, message: compareNoteText(n, c) })),
      });
    }
  }
}

export const GET = readRoute(handleGET);
