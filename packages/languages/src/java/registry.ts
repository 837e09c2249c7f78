import { LANGUAGE_INFO } from '@scb/shared/job';
import { RegistryError } from '../plugin';

export const JAVA_ARTIFACT = LANGUAGE_INFO.java.packageName;
/** The repository whose metadata lists the versions: Maven Central, or SCB_MAVEN_REPOSITORY (a mirror; tests serve their own). */
const mavenMetadata = () => `${(process.env.SCB_MAVEN_REPOSITORY || 'https://repo1.maven.org/maven2').replace(/\/$/, '')}/com/google/cloud/google-cloud-spanner/maven-metadata.xml`;

export async function mavenVersions(): Promise<string[]> {
  try {
    const res = await fetch(mavenMetadata(), { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return [...(await res.text()).matchAll(/<version>([^<]+)<\/version>/g)].map((m) => m[1]!);
  } catch (e) {
    throw new RegistryError(`could not read the Maven metadata of ${JAVA_ARTIFACT}: ${(e as Error).message}`);
  }
}
