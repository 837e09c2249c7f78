// Which client versions the package registries publish (server side only: it runs npm and fetch).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SEMVER, type Language } from './spec';
import { compareSemver } from './versions';

const run = promisify(execFile);

export const CLIENT_PACKAGES: Record<Language, string> = {
  node: '@google-cloud/spanner',
  java: 'com.google.cloud:google-cloud-spanner',
};

const MAVEN_METADATA = 'https://repo1.maven.org/maven2/com/google/cloud/google-cloud-spanner/maven-metadata.xml';
const TTL_MS = 3_600_000;
const cache = new Map<Language, { at: number; versions: string[] }>();

export class RegistryError extends Error {}

/** Published versions, oldest first as the registries list them, cached for an hour. */
export async function publishedVersions(language: Language): Promise<string[]> {
  const hit = cache.get(language);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.versions;
  const versions = (language === 'node' ? await npmVersions() : await mavenVersions()).filter((v) => SEMVER.test(v));
  cache.set(language, { at: Date.now(), versions });
  return versions;
}

/** npm's own client, so a user's registry settings (.npmrc, mirrors) apply. */
async function npmVersions(): Promise<string[]> {
  try {
    const { stdout } = await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['view', CLIENT_PACKAGES.node, 'versions', '--json'], { timeout: 60_000, maxBuffer: 16 << 20 });
    return JSON.parse(stdout) as string[];
  } catch (e) {
    throw new RegistryError(`could not ask the npm registry for ${CLIENT_PACKAGES.node} versions: ${lastLine((e as { stderr?: string }).stderr ?? (e as Error).message)}`);
  }
}

async function mavenVersions(): Promise<string[]> {
  try {
    const res = await fetch(MAVEN_METADATA, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return [...(await res.text()).matchAll(/<version>([^<]+)<\/version>/g)].map((m) => m[1]);
  } catch (e) {
    throw new RegistryError(`could not read Maven Central's metadata for ${CLIENT_PACKAGES.java}: ${(e as Error).message}`);
  }
}

function lastLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).filter((l) => l && !l.includes('Unknown user config')).slice(-2).join(' | ');
}

/** Semver order, newest first; prereleases after their release. */
export function newestFirst(versions: string[]): string[] {
  return [...versions].sort((a, b) => compareSemver(b, a));
}
