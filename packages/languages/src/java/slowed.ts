// Java candidate builds with a known regression (issue 38's calibration): the published jar of
// google-cloud-spanner with a wait of `delayMs` at the start of the methods every query goes through,
// put in a Maven repository fragment under a version of its own (the release's version with
// -slowed.<microseconds>us: a fragment whose version is on Maven Central would be shadowed by the local
// repository's jar). The wait is LockSupport.parkNanos, inserted into the bytecode by SlowedJar.java
// with ASM: no sources needed, any release whose classes have these methods.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Injection } from '@scb/shared/calibration';
import { SEMVER } from '@scb/shared/job';
import { ArtifactError } from '../artifacts/archive';
import { makeMavenFragment } from '../artifacts/relabel';
import type { SlowedBuild } from '../artifacts/slowed';
import { MVN } from './install';
import { compiledOnce } from './javac';

const run = promisify(execFile);
const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'slowed', 'SlowedJar.java');
const ASM = { group: 'org.ow2.asm', artifact: 'asm', version: '9.7' };
const M2 = () => path.join(os.homedir(), '.m2', 'repository');

/**
 * The methods every operation's query goes through, by class (internal name), as name + descriptor:
 * a read context's executeQuery (select1, scans, a read-only or read-write transaction's query) and
 * read (pointRead's readRow calls it), and a read-write transaction's executeUpdate.
 */
export const JAVA_SLOWED_METHODS: Record<string, string[]> = {
  'com/google/cloud/spanner/AbstractReadContext': [
    'executeQuery(Lcom/google/cloud/spanner/Statement;[Lcom/google/cloud/spanner/Options$QueryOption;)Lcom/google/cloud/spanner/ResultSet;',
    'read(Ljava/lang/String;Lcom/google/cloud/spanner/KeySet;Ljava/lang/Iterable;[Lcom/google/cloud/spanner/Options$ReadOption;)Lcom/google/cloud/spanner/ResultSet;',
  ],
  'com/google/cloud/spanner/TransactionRunnerImpl$TransactionContextImpl': ['executeUpdate(Lcom/google/cloud/spanner/Statement;[Lcom/google/cloud/spanner/Options$UpdateOption;)J'],
};

/** The version a slowed build of `version` carries: 6.123.0-slowed.6413us for a wait of 6.413 ms, 6.123.0-busy.6413us for that much CPU. */
export const slowedJavaVersion = (version: string, delayMs: number, injection: Injection = 'wait'): string => `${version}-${injection === 'busy' ? 'busy' : 'slowed'}.${Math.round(delayMs * 1000)}us`;

/** SlowedJar compiled against ASM once per source, under the cache; its classpath. */
async function tool(cacheDir: string): Promise<string> {
  const asm = path.join(M2(), ...ASM.group.split('.'), ASM.artifact, ASM.version, `${ASM.artifact}-${ASM.version}.jar`);
  if (!existsSync(asm)) {
    await run(MVN, ['-B', '-q', 'dependency:get', `-Dartifact=${ASM.group}:${ASM.artifact}:${ASM.version}`, '-Dtransitive=false'], { timeout: 5 * 60_000, maxBuffer: 1 << 24 });
  }
  return [asm, await compiledOnce(SOURCE, asm, path.join(cacheDir, 'drivers', 'java-slowed'))].join(path.delimiter);
}

/**
 * The release `version` (its jars in the local Maven repository, as a Java cell of it leaves them) as a
 * fragment whose google-cloud-spanner waits `delayMs` before each query (JAVA_SLOWED_METHODS), its
 * sibling modules relabelled with it. Throws ArtifactError when the release is not in the local
 * repository or lacks a method the patch needs.
 */
export async function slowedJavaBuild(version: string, delayMs: number, cacheDir: string, injection: Injection = 'wait'): Promise<SlowedBuild & { version: string }> {
  if (!SEMVER.test(version)) throw new ArtifactError(`"${version}" is not a plain semver version`);
  if (!(delayMs >= 0 && delayMs <= 60_000)) throw new RangeError(`the delay must be 0 to 60,000 ms, not ${delayMs}`);
  const jar = path.join(M2(), 'com', 'google', 'cloud', 'google-cloud-spanner', version, `google-cloud-spanner-${version}.jar`);
  if (!existsSync(jar)) throw new ArtifactError(`the local Maven repository has no google-cloud-spanner ${version}: run a Java cell of it first (it resolves the release there)`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-slowed-jar-'));
  try {
    const out = path.join(dir, 'slowed.jar');
    const targets = Object.entries(JAVA_SLOWED_METHODS).flatMap(([cls, methods]) => methods.map((m) => `${cls}#${m}`));
    try {
      await run('java', ['-cp', await tool(cacheDir), 'SlowedJar', jar, out, `${injection === 'busy' ? 'busy:' : ''}${Math.round(delayMs * 1e6)}`, ...targets], {
        timeout: 5 * 60_000,
        maxBuffer: 1 << 24,
      });
    } catch (e) {
      const err = e as { code?: unknown; stderr?: string; message: string };
      throw new ArtifactError(err.code === 2 ? (err.stderr ?? '').trim() : `SlowedJar failed: ${(err.stderr || err.message).trim().split('\n')[0]}`);
    }
    const to = slowedJavaVersion(version, delayMs, injection);
    const bytes = makeMavenFragment({ from: version, to, jars: { 'com.google.cloud:google-cloud-spanner': readFileSync(out) } });
    return { bytes, patched: Object.keys(JAVA_SLOWED_METHODS), version: to };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
