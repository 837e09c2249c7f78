import { javaInfo } from './info';
import { RegistryError } from '../plugin';

export const JAVA_ARTIFACT = javaInfo.packageName;
/** The repository whose metadata lists the versions: Maven Central, or SCB_MAVEN_REPOSITORY (a mirror; tests serve their own). */
const mavenBase = () => `${(process.env.SCB_MAVEN_REPOSITORY || 'https://repo1.maven.org/maven2').replace(/\/$/, '')}/com/google/cloud/google-cloud-spanner`;
const mavenMetadata = () => `${mavenBase()}/maven-metadata.xml`;

/** Maven's metadata dates no version: each version's POM is dated by the repository (Last-Modified), asked a few at a time. */
export async function mavenPublishDates(versions: readonly string[]): Promise<Record<string, string>> {
  const dates: Record<string, string> = {};
  const queue = [...versions];
  const worker = async () => {
    for (let v = queue.shift(); v !== undefined; v = queue.shift()) {
      const res = await fetch(`${mavenBase()}/${v}/google-cloud-spanner-${v}.pom`, { method: 'HEAD', signal: AbortSignal.timeout(30_000) }).catch((e: Error) => {
        throw new RegistryError(`could not ask the Maven repository when ${JAVA_ARTIFACT} ${v} was published: ${e.message}`);
      });
      const modified = res.ok ? Date.parse(res.headers.get('last-modified') ?? '') : Number.NaN;
      if (!Number.isNaN(modified)) dates[v] = new Date(modified).toISOString();
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return dates;
}

export async function mavenVersions(): Promise<string[]> {
  try {
    const res = await fetch(mavenMetadata(), { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return [...(await res.text()).matchAll(/<version>([^<]+)<\/version>/g)].map((m) => m[1]!);
  } catch (e) {
    throw new RegistryError(`could not read the Maven metadata of ${JAVA_ARTIFACT}: ${(e as Error).message}`);
  }
}
