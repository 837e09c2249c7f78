import { LANGUAGE_INFO } from '@scb/shared/job';
import { RegistryError } from '../plugin';

export const JAVA_ARTIFACT = LANGUAGE_INFO.java.packageName;
const MAVEN_METADATA = 'https://repo1.maven.org/maven2/com/google/cloud/google-cloud-spanner/maven-metadata.xml';

export async function mavenVersions(): Promise<string[]> {
  try {
    const res = await fetch(MAVEN_METADATA, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return [...(await res.text()).matchAll(/<version>([^<]+)<\/version>/g)].map((m) => m[1]!);
  } catch (e) {
    throw new RegistryError(`could not read Maven Central's metadata for ${JAVA_ARTIFACT}: ${(e as Error).message}`);
  }
}
