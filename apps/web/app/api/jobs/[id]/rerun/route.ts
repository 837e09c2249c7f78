import { writeRoute } from '@/lib/auth/guard';
import type { Identity } from '@/lib/auth/identity';
import { NextResponse } from 'next/server';
import { rerunJob } from '@scb/db';
import { databaseUrl, db } from '@/lib/db';
import { idRefusal, policyIssuesOf, policyResponse, underQueueLimit } from '@/lib/http';
import { jobUrl, publicOrigin } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** 201 with the new job's id: a finished job is re-run as a new job linked to it; the old one never changes. */
async function handlePOST(_req: Request, ctx: { params: Promise<{ id: string }> }, who: Identity) {
  const { id } = await ctx.params;
  const badId = idRefusal(id, 'job');
  if (badId) return badId;
  const stored = await underQueueLimit(who, (maxUnfinished) => rerunJob(db(), databaseUrl(), id, { refuse: policyIssuesOf, createdBy: who.name, maxUnfinished }));
  if (!stored.ok) return stored.response;
  const outcome = stored.value;
  switch (outcome.kind) {
    case 'not-found':
      return NextResponse.json({ error: `no job with id "${id}"` }, { status: 404 });
    case 'unfinished':
      return NextResponse.json({ error: `the job is ${outcome.status}: only a finished job is re-run` }, { status: 409 });
    case 'gate':
      return NextResponse.json({ error: `this job runs release gate ${outcome.gateId}: post the gate again (POST /api/gates with its spec) to get a new verdict` }, { status: 409 });
    case 'invalid':
      return NextResponse.json({ error: 'the stored spec no longer passes validation; launch a corrected copy from the form', issues: outcome.issues }, { status: 400 });
    case 'refused':
      return policyResponse(outcome.issues);
    case 'created': {
      const url = jobUrl(outcome.id, publicOrigin());
      return NextResponse.json({ id: outcome.id, rerunOf: id, url }, { status: 201, headers: { Location: url } });
    }
  }
}

export const POST = writeRoute(handlePOST);
