import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { languageNames } from '@scb/shared/job';
import { newestFirst, publishedVersions } from '@scb/languages';
import { knownClientVersions } from '@scb/db';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

/** Published client versions, newest first, with what this machine learned installing them. */
async function handleGET(req: Request) {
  const language = new URL(req.url).searchParams.get('language') ?? 'node';
  if (!languageNames().includes(language)) {
    return NextResponse.json({ error: `language must be one of ${languageNames().join(', ')}`, issues: [{ path: 'language', message: 'unknown language' }] }, { status: 400 });
  }
  let published: string[];
  try {
    published = await publishedVersions(language);
  } catch (e) {
    return NextResponse.json({ error: (e as Error).message }, { status: 502 });
  }
  const known = await knownClientVersions(db(), language);
  return NextResponse.json({
    language,
    versions: newestFirst(published).map((version) => {
      const k = known.get(version);
      return { version, status: k ? (k.ok ? 'installed' : 'failed') : 'unknown', message: k?.message ?? null };
    }),
  });
}

export const GET = readRoute(handleGET);
