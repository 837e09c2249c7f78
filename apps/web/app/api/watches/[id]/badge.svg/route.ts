import { readRoute } from '@/lib/auth/guard';
import { plainText } from '@/lib/http';
import { watchBadge } from '@/lib/watches';

export const dynamic = 'force-dynamic';

/** The watch's newest release and its state as an SVG badge; short-lived in caches, since a verdict changes it. */
async function handleGET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const svg = await watchBadge(id);
  if (svg === null) return plainText(`no watch with id "${id}"`, 404);
  return new Response(svg, { headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'max-age=60, must-revalidate' } });
}

export const GET = readRoute(handleGET);
