import { readRoute } from '@/lib/auth/guard';
import { publicOrigin } from '@/lib/jobs';
import { watchFeed } from '@/lib/watches';

export const dynamic = 'force-dynamic';

/** The Atom feed of every watch's verdicts, newest first. */
async function handleGET() {
  const xml = (await watchFeed(publicOrigin())) ?? '';
  return new Response(xml, { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } });
}

export const GET = readRoute(handleGET);
