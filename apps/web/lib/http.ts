import { NextResponse } from 'next/server';
import { isDatabaseUnreachable } from '@scb/db';
import { policyIssues } from '@scb/shared/policy';
import type { FieldIssue, ParseResult } from '@scb/shared/spec';
import type { Target } from '@scb/shared/targets';
import { webPolicy } from './env';

type Refused = { ok: false; response: NextResponse };

/** A request's JSON body, or the 400 answer naming why it is not JSON. */
export async function readJsonBody(req: Request): Promise<{ ok: true; body: unknown } | Refused> {
  try {
    return { ok: true, body: await req.json() };
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

/** The 400 answer for a target that breaks the operator's policy (each rule named), or null when it breaks none. */
export function refusedByPolicy(target: Target): NextResponse | null {
  const issues = policyIssues(webPolicy(), target);
  return issues.length ? policyResponse(issues) : null;
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
