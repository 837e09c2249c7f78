import { readRoute } from '@/lib/auth/guard';
import { toCsv } from '@scb/shared/export';
import { csvRows, exportableJob } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

async function handleGET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const job = await exportableJob((await ctx.params).id);
  if (job instanceof Response) return job;
  return new Response(toCsv(csvRows(job)), {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="spanner-client-bench-${job.id}.csv"` },
  });
}

export const GET = readRoute(handleGET);
