import { NextResponse } from 'next/server';
import { isDatabaseUnreachable, isStoredId, QueueFullError } from '@scb/db';
import { artifactIssues, limitIssues, policyIssues, queueLimitRefusal } from '@scb/shared/policy';
import type { FieldIssue, JobSpec, ParseResult } from '@scb/shared/job';
import { webPolicy } from './env';

type Refused = { ok: false; response: NextResponse };

/** The body's bytes, read no further than `limit`: null when it is larger. */
export async function boundedBytes(req: Request, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > limit) return null;
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body's text, read no further than the operator's limit: null when it is larger. */
async function boundedText(req: Request, limit: number): Promise<string | null> {
  return (await boundedBytes(req, limit))?.toString('utf8') ?? null;
}

/** A request's JSON body, or the 413 / 400 answer naming why it is not taken. */
export async function readJsonBody(req: Request): Promise<{ ok: true; body: unknown } | Refused> {
  const limit = webPolicy().limits.bodyBytes;
  const text = await boundedText(req, limit);
  if (text === null) return { ok: false, response: NextResponse.json({ error: `the request body is larger than this server's limit of ${limit} bytes (SCB_MAX_BODY_BYTES)` }, { status: 413 }) };
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (e) {
    return {
      ok: false,
      response: NextResponse.json({ error: 'the request body is not valid JSON', issues: [{ path: '(root)', message: (e as Error).message }] }, { status: 400 }),
    };
  }
}

/** A request's body validated as a spec, or the 400 answer naming every bad field. */
export async function readSpec<T>(req: Request, parse: (body: unknown) => ParseResult<T>, what: string): Promise<{ ok: true; value: T } | Refused> {
  const json = await readJsonBody(req);
  if (!json.ok) return json;
  const parsed = parse(json.body);
  if (!parsed.ok) return { ok: false, response: NextResponse.json({ error: `invalid ${what}`, issues: parsed.issues }, { status: 400 }) };
  return parsed;
}

/** Every rule of the operator's policy a job spec breaks: what its target may reach, how many cells it plans. */
export function policyIssuesOf(spec: JobSpec): FieldIssue[] {
  const policy = webPolicy();
  return [...policyIssues(policy, spec.target), ...artifactIssues(policy, spec), ...limitIssues(policy, spec)];
}

/** The 400 answer for a spec that breaks the operator's policy (each rule named), or null when it breaks none. */
export function refusedByPolicy(spec: JobSpec): NextResponse | null {
  const issues = policyIssuesOf(spec);
  return issues.length ? policyResponse(issues) : null;
}

/** The identity's limit of jobs queued or running (SCB_MAX_QUEUED_JOBS); undefined in local mode, which has one user and no limit. */
export function queueLimitOf(who: { kind: string }): number | undefined {
  return who.kind === 'local' ? undefined : webPolicy().limits.queuedJobsPerIdentity;
}

/**
 * Stores a job (or gate) under the identity's limit of jobs queued or running: the 429 answer when
 * it is reached. Local mode has one user and no limit.
 */
export async function underQueueLimit<T>(who: { name: string; kind: string }, store: (maxUnfinished: number | undefined) => Promise<T>): Promise<{ ok: true; value: T } | Refused> {
  try {
    return { ok: true, value: await store(queueLimitOf(who)) };
  } catch (e) {
    if (!(e instanceof QueueFullError)) throw e;
    return { ok: false, response: NextResponse.json({ error: queueLimitRefusal(webPolicy(), e.unfinished, e.adding) }, { status: 429, headers: { 'retry-after': '60' } }) };
  }
}

/** The 400 answer for a path id that is not an id's shape (none is stored so), or null for one that is. */
export function idRefusal(id: string, what: 'job' | 'gate' | 'watch' | 'calibration', json = true): Response | null {
  if (isStoredId(id)) return null;
  const message = `is not a ${what} id (1 to 40 lower-case letters and digits)`;
  return json ? NextResponse.json({ error: `invalid ${what} id`, issues: [{ path: 'id', message }] }, { status: 400 }) : plainText(`invalid ${what} id: id ${message}`, 400);
}

/** The 400 answer for malformed query parameters, each named with what it must be. */
export function queryRefusal(issues: FieldIssue[]): NextResponse {
  return NextResponse.json({ error: 'invalid parameters', issues }, { status: 400 });
}

export function policyResponse(issues: FieldIssue[]): NextResponse {
  return NextResponse.json({ error: "the spec breaks this server's policy", issues }, { status: 400 });
}

/** A plain-text answer: a 404 for an unknown id, or why a stored row cannot be shown. */
export function plainText(text: string, status: number): Response {
  return new Response(`${text}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** An API handler that answers 503 with a JSON error while the database cannot be reached, instead of a 500. */
export function apiRoute<A extends unknown[]>(handler: (...args: A) => Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (e) {
      if (!isDatabaseUnreachable(e)) throw e;
      return NextResponse.json({ error: 'the database cannot be reached right now; try again shortly' }, { status: 503, headers: { 'retry-after': '5' } });
    }
  };
}
