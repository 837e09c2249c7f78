import { readRoute } from '@/lib/auth/guard';
import { jobMarkdown } from '@scb/shared/markdown';
import { exportableJob, jobUrl, publicOrigin, tableCells } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** The GitHub-flavoured summary a user pastes into an issue. */
async function handleGET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const job = await exportableJob((await ctx.params).id);
  if (job instanceof Response) return job;
  const text = jobMarkdown({ id: job.id, url: jobUrl(job.id, publicOrigin()), spec: job.spec, environment: job.environment, cells: tableCells(job), expectations: job.expectations });
  return new Response(text + '\n', { headers: { 'content-type': 'text/markdown; charset=utf-8' } });
}

export const GET = readRoute(handleGET);
