// What this machine learned installing client versions: resolved, or why not (for the launch form).
import type { Db } from './client';
import type { ClientVersion } from '../generated/prisma/client';

/** Records the outcome of installing a client version: `failure` null when it resolved, else why not. */
export async function recordClientVersion(db: Db, language: string, version: string, failure: string | null): Promise<void> {
  const data = { ok: failure === null, message: failure, checkedAt: new Date() };
  await db.clientVersion.upsert({ where: { language_version: { language, version } }, create: { language, version, ...data }, update: data });
}

/** Every version of a language this machine has tried to install (or only those of `versions`), by version. */
export async function knownClientVersions(db: Db, language: string, versions?: readonly string[]): Promise<Map<string, ClientVersion>> {
  return new Map((await db.clientVersion.findMany({ where: { language, ...(versions && { version: { in: [...versions] } }) } })).map((v) => [v.version, v]));
}
