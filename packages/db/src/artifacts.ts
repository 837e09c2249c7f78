// Uploaded client builds (candidate builds): content-addressed rows that hold the bytes, so a runner on
// any machine fetches a build from the database its queue lives in. Checking a build is the
// language's (@scb/languages artifacts); this module only stores and reads.
import type { Db } from './client';

/** What is known of a build without its bytes. */
export interface ArtifactMeta {
  id: string;
  createdAt: Date;
  language: string;
  module: string;
  version: string;
  format: string;
  label: string | null;
  bytes: number;
  /** Java: every Maven artifact of the fragment, groupId:artifactId:version. */
  contents: string[] | null;
  uploadedBy: string;
}

export interface ArtifactUpload extends Omit<ArtifactMeta, 'createdAt'> {
  content: Buffer;
}

const META = { id: true, createdAt: true, language: true, module: true, version: true, format: true, label: true, bytes: true, contents: true, uploadedBy: true } as const;

const meta = (r: Omit<ArtifactMeta, 'contents'> & { contents: unknown }): ArtifactMeta => ({ ...r, contents: Array.isArray(r.contents) ? (r.contents as string[]) : null });

/**
 * Stores a build once: the same bytes are the same id, so a second upload stores nothing and answers
 * the first one's row (its label and uploader stay the first's). `created` says which happened.
 */
export async function storeArtifact(db: Db, a: ArtifactUpload): Promise<{ artifact: ArtifactMeta; created: boolean }> {
  const existing = await db.artifact.findUnique({ where: { id: a.id }, select: META });
  if (existing) return { artifact: meta(existing), created: false };
  const { content, contents, ...rest } = a;
  try {
    const row = await db.artifact.create({ data: { ...rest, contents: contents ?? undefined, content: new Uint8Array(content) }, select: META });
    return { artifact: meta(row), created: true };
  } catch (e) {
    // The same bytes uploaded twice at once: the other request stored them.
    const raced = await db.artifact.findUnique({ where: { id: a.id }, select: META });
    if (raced) return { artifact: meta(raced), created: false };
    throw e;
  }
}

/** A build's metadata, or null where no such build was uploaded. */
export async function getArtifact(db: Db, id: string): Promise<ArtifactMeta | null> {
  const row = await db.artifact.findUnique({ where: { id }, select: META });
  return row ? meta(row) : null;
}

/** Several builds' metadata by id (those that exist). */
export async function getArtifacts(db: Db, ids: readonly string[]): Promise<Map<string, ArtifactMeta>> {
  if (!ids.length) return new Map();
  const rows = await db.artifact.findMany({ where: { id: { in: [...new Set(ids)] } }, select: META });
  return new Map(rows.map((r) => [r.id, meta(r)]));
}

/** A build's bytes, for the runner that installs it; null where it is gone. */
export async function artifactContent(db: Db, id: string): Promise<Buffer | null> {
  const row = await db.artifact.findUnique({ where: { id }, select: { content: true } });
  return row ? Buffer.from(row.content) : null;
}

export interface ArtifactJob {
  id: string;
  name: string | null;
  status: string;
  createdAt: Date;
  /** The gate the job runs, where it runs one. */
  gateId: string | null;
}

/** The jobs whose cells run a build, newest first (at most `limit`). */
export async function jobsRunningArtifact(db: Db, id: string, limit = 100): Promise<ArtifactJob[]> {
  const jobs = await db.job.findMany({
    where: { cells: { some: { clientArtifact: id } } },
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: { id: true, name: true, status: true, createdAt: true, gate: { select: { id: true } } },
  });
  return jobs.map((j) => ({ id: j.id, name: j.name, status: j.status, createdAt: j.createdAt, gateId: j.gate?.id ?? null }));
}
