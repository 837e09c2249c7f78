import { readRoute, writeRoute } from '@/lib/auth/guard';
import type { Identity } from '@/lib/auth/identity';
import { NextResponse } from 'next/server';
import { storeArtifact } from '@scb/db';
import { ArtifactError, DEFAULT_ARTIFACT_LIMITS, artifactId, inspectArtifact } from '@scb/languages';
import { ArtifactLabelSchema, LanguageSchema } from '@scb/shared/job';
import { POLICY_VARIABLES } from '@scb/shared/policy';
import { db } from '@/lib/db';
import { boundedBytes } from '@/lib/http';
import { webPolicy } from '@/lib/env';
import { artifactUrl } from '@/lib/artifacts';
import { publicOrigin } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

const refuse = (status: number, error: string, issues?: { path: string; message: string }[]) => NextResponse.json({ error, ...(issues && { issues }) }, { status });

/**
 * Uploads a client build: the body is the file a client's own build makes (npm pack's tarball, a Maven
 * repository fragment as .tar.gz, a Go module .zip or .tar.gz, a Python wheel), `?language=` and optional `&label=`.
 * 201 {id, language, module, version, label, bytes, url} (200 with the stored record when the same
 * bytes were uploaded before); 400 naming why the file is not taken. Nothing in it runs here.
 */
async function handlePOST(req: Request, _ctx: unknown, who: Identity) {
  const policy = webPolicy();
  if (!policy.artifacts.enabled) return refuse(403, `uploaded builds are off on this server (${POLICY_VARIABLES.artifacts}): its operator runs published versions only`);
  const params = new URL(req.url).searchParams;
  const language = LanguageSchema.safeParse(params.get('language') ?? undefined);
  const labelText = params.get('label');
  const label = labelText === null ? undefined : ArtifactLabelSchema.safeParse(labelText);
  const issues = [
    ...(language.success ? [] : [{ path: 'language', message: params.has('language') ? language.error.issues[0]!.message : 'is required (?language=node, java, go or python)' }]),
    ...(label && !label.success ? [{ path: 'label', message: label.error.issues[0]!.message }] : []),
  ];
  if (issues.length) return refuse(400, 'invalid upload', issues);
  const maxBytes = policy.artifacts.maxBytes;
  const bytes = await boundedBytes(req, maxBytes);
  const mb = Math.round(maxBytes / 1024 / 1024);
  if (bytes === null) return refuse(400, `the file is larger than this server's limit of ${mb} MB (${POLICY_VARIABLES.artifactMb})`);
  if (bytes.length === 0) return refuse(400, 'the request body is empty: send the build as the body (curl --data-binary @file)');
  let info: ReturnType<typeof inspectArtifact>;
  try {
    info = inspectArtifact(language.data!, bytes, { ...DEFAULT_ARTIFACT_LIMITS, maxBytes });
  } catch (e) {
    if (e instanceof ArtifactError) return refuse(400, `not a ${language.data} client build this server takes: ${e.message}`);
    throw e;
  }
  const id = artifactId(bytes);
  const { artifact, created } = await storeArtifact(db(), {
    id,
    language: info.language,
    module: info.module,
    // As a spec writes it: Go's module versions without their v (v1.96.1 is 1.96.1).
    version: info.language === 'go' ? info.version.replace(/^v/, '') : info.version,
    format: info.format,
    label: label?.success ? label.data : null,
    bytes: bytes.length,
    contents: info.mavenArtifacts ?? null,
    uploadedBy: who.name,
    content: bytes,
  });
  const url = artifactUrl(artifact.id, publicOrigin());
  const body = { id: artifact.id, language: artifact.language, module: artifact.module, version: artifact.version, label: artifact.label, bytes: artifact.bytes, url };
  return NextResponse.json(body, { status: created ? 201 : 200, headers: { Location: url } });
}

export const POST = writeRoute(handlePOST, 'application/octet-stream');
export const GET = readRoute(async () => refuse(405, 'GET /api/artifacts/<id> shows one build'));
