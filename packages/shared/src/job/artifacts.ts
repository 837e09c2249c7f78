// A spec that names uploaded builds (clients[].artifact, a gate's candidateArtifact) is completed from
// what the server stored of each build before it is validated: the build's own version (so every
// version rule applies to what the build says it is) and its label. Pure: the caller looks builds up.
import { ARTIFACT_ID, type FieldIssue } from './spec';

/** What resolving needs of a stored build. */
export interface ArtifactFacts {
  id: string;
  language: string;
  version: string;
  label: string | null;
}

type Lookup = (id: string) => ArtifactFacts | undefined;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every well-formed artifact id a raw job or gate spec names (clients[].artifact, candidateArtifact). */
export function artifactIdsOf(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const ids = Array.isArray(body.clients) ? body.clients.map((c) => (isRecord(c) ? c.artifact : undefined)) : [];
  ids.push(body.candidateArtifact);
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && ARTIFACT_ID.test(id)))];
}

/** One client's fields completed from its build, or the issue at `at`. */
function complete(client: Record<string, unknown>, language: unknown, id: string, lookup: Lookup, at: string, versionField: string): { fields: Record<string, unknown> } | { issue: FieldIssue } {
  const a = lookup(id);
  if (!a) return { issue: { path: at, message: 'no build with this id was uploaded here (POST /api/artifacts first)' } };
  if (typeof language === 'string' && language !== a.language) return { issue: { path: at, message: `is a ${a.language} build, not a ${language} one` } };
  const given = client[versionField];
  if (given !== undefined && given !== a.version)
    return { issue: { path: at.replace(/[^.]+$/, versionField), message: `must be the build's own version (${a.version}) or left out: the server reads it from the build` } };
  return { fields: { [versionField]: a.version, ...(a.label && client.label === undefined ? { label: a.label } : {}) } };
}

/**
 * The raw spec with each named build's version (and label, unless the spec gives one) filled in, or
 * the issues naming builds that were never uploaded or are of another language. Ids that are not
 * well-formed are left to the schema, which names them.
 */
export function resolveArtifacts(body: unknown, lookup: Lookup): { ok: true; body: unknown } | { ok: false; issues: FieldIssue[] } {
  if (!isRecord(body)) return { ok: true, body };
  const issues: FieldIssue[] = [];
  let out: Record<string, unknown> = body;
  if (Array.isArray(body.clients)) {
    const clients = body.clients.map((c, i) => {
      if (!isRecord(c) || typeof c.artifact !== 'string' || !ARTIFACT_ID.test(c.artifact)) return c;
      const r = complete(c, c.language, c.artifact, lookup, `clients.${i}.artifact`, 'version');
      if ('issue' in r) {
        issues.push(r.issue);
        return c;
      }
      return { ...c, ...r.fields };
    });
    out = { ...out, clients };
  }
  if (typeof body.candidateArtifact === 'string' && ARTIFACT_ID.test(body.candidateArtifact)) {
    const r = complete({ candidate: body.candidate, label: body.candidateLabel }, body.language, body.candidateArtifact, lookup, 'candidateArtifact', 'candidate');
    if ('issue' in r) issues.push(r.issue);
    else out = { ...out, candidate: r.fields.candidate, ...(r.fields.label !== undefined ? { candidateLabel: r.fields.label } : {}) };
  }
  return issues.length ? { ok: false, issues } : { ok: true, body: out };
}
