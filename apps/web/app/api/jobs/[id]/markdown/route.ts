import { jobMarkdown } from '@scb/shared/markdown';
import { getJob, isInvalidJob, jobUrl, originOf, tableCells } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** The GitHub-flavoured summary a user pastes into an issue. */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const job = await getJob(id);
  if (!job) return new Response(`no job with id "${id}"\n`, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  if (isInvalidJob(job)) return new Response(`${job.invalid}\n`, { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const text = jobMarkdown({ id: job.id, url: jobUrl(job.id, originOf(req.headers)), spec: job.spec, environment: job.environment, cells: tableCells(job) });
  return new Response(text + '\n', { headers: { 'content-type': 'text/markdown; charset=utf-8' } });
}
