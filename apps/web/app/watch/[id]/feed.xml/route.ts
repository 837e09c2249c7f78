import { readRoute } from '@/lib/auth/guard';
import { idRefusal, plainText } from '@/lib/http';
import { publicOrigin } from '@/lib/jobs';
import { watchFeed } from '@/lib/watches';

export const dynamic = 'force-dynamic';

/** The Atom feed of one watch's verdicts, newest first. */
async function handleGET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const badId = idRefusal(id, 'watch', false);
  if (badId) return badId;
  const xml = await watchFeed(publicOrigin(), id);
  if (xml === null) return plainText(`no watch with id "${id}"`, 404);
  return new Response(xml, { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } });
}

export const GET = readRoute(handleGET);
