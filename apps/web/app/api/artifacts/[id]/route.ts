import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { getArtifact, jobsRunningArtifact } from '@scb/db';
import { ARTIFACT_ID } from '@scb/shared/job';
import { db } from '@/lib/db';
import { jobUrl, publicOrigin } from '@/lib/jobs';
import { gateUrl } from '@/lib/gates';
import { artifactUrl } from '@/lib/artifacts';

export const dynamic = 'force-dynamic';

/** An uploaded build's record: what it is, who uploaded it, and the jobs that ran it (newest first). 404 for an unknown id. */
async function handleGET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const decoded = decodeURIComponent(id);
  if (!ARTIFACT_ID.test(decoded)) return NextResponse.json({ error: 'not an artifact id: sha256:<64 hex digits>' }, { status: 400 });
  const a = await getArtifact(db(), decoded);
  if (!a) return NextResponse.json({ error: 'no build with this id was uploaded here' }, { status: 404 });
  const origin = publicOrigin();
  const jobs = await jobsRunningArtifact(db(), a.id);
  return NextResponse.json({
    id: a.id,
    url: artifactUrl(a.id, origin),
    language: a.language,
    module: a.module,
    version: a.version,
    format: a.format,
    label: a.label,
    bytes: a.bytes,
    ...(a.contents && { contents: a.contents }),
    uploadedBy: a.uploadedBy,
    uploadedAt: a.createdAt.toISOString(),
    jobs: jobs.map((j) => ({ id: j.id, url: jobUrl(j.id, origin), name: j.name, status: j.status, createdAt: j.createdAt.toISOString(), ...(j.gateId && { gate: gateUrl(j.gateId, origin) }) })),
  });
}

export const GET = readRoute(handleGET);
