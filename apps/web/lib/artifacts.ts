// Uploaded builds as the web app handles them: a spec naming builds is completed from what was stored
// of each (its version and label) before it is validated; links to a build's record.
import { NextResponse } from 'next/server';
import { getArtifacts } from '@scb/db';
import { artifactIdsOf, resolveArtifacts, type ParseResult } from '@scb/shared/job';
import { db } from './db';
import { readJsonBody } from './http';

type Refused = { ok: false; response: NextResponse };

/**
 * A request's body validated as a spec after each uploaded build it names is looked up and its
 * version filled in; the 400 answer naming every bad field (an unknown build, another language's).
 */
export async function readSpecWithArtifacts<T>(req: Request, parse: (body: unknown) => ParseResult<T>, what: string): Promise<{ ok: true; value: T } | Refused> {
  const json = await readJsonBody(req);
  if (!json.ok) return json;
  const ids = artifactIdsOf(json.body);
  const stored = await getArtifacts(db(), ids);
  const resolved = resolveArtifacts(json.body, (id) => stored.get(id));
  const parsed = resolved.ok ? parse(resolved.body) : resolved;
  if (!parsed.ok) return { ok: false, response: NextResponse.json({ error: `invalid ${what}`, issues: parsed.issues }, { status: 400 }) };
  return parsed;
}

/** A build's permanent link (its metadata, who uploaded it, the jobs that ran it). */
export function artifactUrl(id: string, origin: string): string {
  return `${origin}/api/artifacts/${id}`;
}
