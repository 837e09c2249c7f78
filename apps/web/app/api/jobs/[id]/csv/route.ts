import { toCsv } from '@scb/shared/export';
import { csvRows, getJob, isInvalidJob } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const job = await getJob(id);
  if (!job) return new Response(`no job with id "${id}"\n`, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  if (isInvalidJob(job)) return new Response(`${job.invalid}\n`, { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(toCsv(csvRows(job)), {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="spanner-client-bench-${id}.csv"` },
  });
}
