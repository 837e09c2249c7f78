import { readRoute } from '@/lib/auth/guard';
import { gateMarkdown } from '@scb/shared/gate-markdown';
import { getGate, isInvalidGate, markdownGate } from '@/lib/gates';
import { idRefusal, plainText } from '@/lib/http';
import { publicOrigin } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

/** The verdict, its reasons and the per-metric table, for a GitHub issue or a CI log. */
async function handleGET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const badId = idRefusal(id, 'gate', false);
  if (badId) return badId;
  const gate = await getGate(id, publicOrigin());
  if (!gate) return plainText(`no gate with id "${id}"`, 404);
  if (isInvalidGate(gate)) return plainText(gate.invalid, 500);
  return new Response(gateMarkdown(markdownGate(gate)) + '\n', { headers: { 'content-type': 'text/markdown; charset=utf-8' } });
}

export const GET = readRoute(handleGET);
