import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SEMVER } from '@scb/shared/job';
import { inspectArtifact, unpackArtifact, type ArtifactInfo } from '../artifacts/index';
import { buildFolderName, ClientInstallError, oneAtATime, takeBuild, type BuildToInstall, type DriverLaunch, type InstallContext } from '../plugin';
import { runtimeOptionsOf } from '../launch/runtime-options';
import { archiveClasses, classSharingArgs } from './class-sharing';
import { JAVA_RUNTIME_OPTIONS } from './runtime-options';
import { JAVA_ARTIFACT as ARTIFACT } from './registry';

const run = promisify(execFile);
export const MVN = process.platform === 'win32' ? 'mvn.cmd' : 'mvn';
/** The driver's Maven project: pom.xml (dependencies) and src/main/java (the driver). */
export const JAVA_DRIVER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'driver');
const POM = path.join(JAVA_DRIVER_DIR, 'pom.xml');
const SOURCES = path.join(JAVA_DRIVER_DIR, 'src', 'main', 'java', 'bench');

/** The Java driver of one client version: its launch, and the classpath test harnesses run on. */
export interface JavaClient extends DriverLaunch {
  version: string;
  classpath: string;
}

/**
 * Resolves google-cloud-spanner at exactly `version` with Maven into a cached classpath and compiles
 * the driver against it, once per version (and again when the driver's pom or sources change).
 * The version must be plain semver and, when Maven Central's metadata can be read, listed there.
 */
export function ensureJavaClient(version: string, ctx: InstallContext): Promise<JavaClient> {
  if (!SEMVER.test(version)) return Promise.reject(new ClientInstallError(`"${version}" is not a plain semver version`));
  return oneAtATime(path.join(ctx.cacheDir, 'clients', 'java', version), () => install(version, ctx));
}

/**
 * Resolves the driver against an uploaded Maven repository fragment (a java-spanner build's modules at
 * one version) once, into <cacheDir>/clients/java/build-<id>: the fragment checked and unpacked
 * (unpackArtifact), offered to Maven as a file repository beside Maven Central, and every jar of it on
 * the classpath taken from the unpacked fragment itself (never from ~/.m2, where another build of the
 * same -SNAPSHOT version may have been put). Maven runs no code of the build to resolve it.
 */
export function ensureJavaBuild(build: BuildToInstall, ctx: InstallContext): Promise<JavaClient> {
  const name = buildFolderName(build.id);
  const dir = path.join(ctx.cacheDir, 'clients', 'java', name);
  return oneAtATime(dir, async () => {
    const fragment = path.join(ctx.cacheDir, 'clients', 'java', `${name}.repository`);
    const info = takeBuild(build.id, () => inspectArtifact('java', build.bytes));
    // Maven keeps what it resolves in the local repository for every later resolution: a build at a
    // published version would stand in for that release there. A build's version must be its own.
    const listed = await ctx.published().catch(() => undefined);
    if (listed?.includes(info.version))
      throw new ClientInstallError(
        `the uploaded build says it is ${ARTIFACT}:${info.version}, a published release: give the build a version of its own (e.g. ${info.version.replace(/(\d+)$/, (n) => String(Number(n) + 1))}-SNAPSHOT)`,
      );
    const unpack = () => {
      rmSync(fragment, { recursive: true, force: true });
      const unpacked = unpackArtifact('java', build.bytes, fragment);
      forgetInLocalRepository(repositoryRoot(fragment));
      return unpacked;
    };
    // Builds of one version resolve one at a time: each forgets the other's poms first.
    return oneAtATime(path.join(ctx.cacheDir, 'clients', 'java', `maven-${info.version}`), () => install(info.version, ctx, { dir, id: build.id, unpack, root: () => repositoryRoot(fragment) }));
  });
}

/** The local Maven repository (Maven's default; a settings.xml elsewhere is not read). */
const LOCAL_REPOSITORY = path.join(os.homedir(), '.m2', 'repository');

/**
 * Removes from the local Maven repository every group/artifact/version folder the fragment holds, so
 * that Maven reads this build's poms (their dependencies) from the fragment, not another build's of the
 * same -SNAPSHOT version that an earlier resolution left there.
 */
function forgetInLocalRepository(fragment: string): void {
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name.endsWith('.pom'))) {
      rmSync(path.join(LOCAL_REPOSITORY, path.relative(fragment, dir)), { recursive: true, force: true });
      return;
    }
    for (const e of entries) if (e.isDirectory()) walk(path.join(dir, e.name));
  };
  walk(fragment);
}

/** The fragment's repository root: the folder that holds com/ (the unpacked folder or one below it). */
function repositoryRoot(dir: string): string {
  if (existsSync(path.join(dir, 'com'))) return dir;
  const subs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  if (subs.length === 1) return repositoryRoot(path.join(dir, subs[0]!.name));
  throw new ClientInstallError('the uploaded fragment has no com/ folder at its root');
}

/** An uploaded fragment the driver resolves against. */
interface LocalRepository {
  dir: string;
  id: string;
  /** Unpacks the fragment (checked again) and returns what it holds. */
  unpack: () => ArtifactInfo;
  root: () => string;
}

async function install(version: string, ctx: InstallContext, local?: LocalRepository): Promise<JavaClient> {
  const log = ctx.log;
  const dir = local?.dir ?? path.join(ctx.cacheDir, 'clients', 'java', version);
  const classes = path.join(dir, 'classes');
  // The driver's classes in a jar: class data sharing takes no folder on the classpath.
  const driverJar = path.join(dir, 'driver.jar');
  const classpathFile = path.join(dir, 'classpath.txt');
  const marker = path.join(dir, '.installed');
  const sources = readdirSync(SOURCES)
    .filter((f) => f.endsWith('.java'))
    .sort()
    .map((f) => path.join(SOURCES, f));
  const key = `${driverHash(sources)} driver.jar${local ? ` ${local.id}` : ''}`;
  const classpathOf = () => [driverJar, readFileSync(classpathFile, 'utf8').trim()].join(path.delimiter);
  // An uploaded build's driver runs sandboxed, where it writes nothing beside it: no class data sharing.
  const java = local ? null : javaBinary('java');
  const client = (): JavaClient => {
    const classpath = classpathOf();
    return { version, classpath, command: 'java', args: [...runtimeOptionsOf(JAVA_RUNTIME_OPTIONS), ...classSharingArgs(dir, classpath, java), '-cp', classpath, 'bench.JavaDriver'], dir };
  };
  // Reuse the cache unless the driver changed or a jar it lists is gone (e.g. ~/.m2 was cleared).
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === key && jarsPresent(classpathFile) && existsSync(driverJar)) {
    await archiveClasses(dir, classpathOf(), java, log);
    return client();
  }

  if (!local) {
    // When Maven Central's metadata cannot be read, Maven itself is the judge.
    const listed = await ctx.published().catch((e: Error) => {
      log(`${e.message}; letting Maven decide`);
      return undefined;
    });
    if (listed && !listed.includes(version)) {
      throw new ClientInstallError(`${ARTIFACT}:${version} is not published on Maven Central (newest: ${listed.at(-1) ?? 'unknown'})`);
    }
  }
  const what = local ? `the uploaded build ${local.id.slice(0, 19)} (${ARTIFACT}:${version})` : `${ARTIFACT}:${version}`;
  log(`resolving ${what} with Maven into ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(classes, { recursive: true });
  let pom = POM;
  let repository: string | undefined;
  if (local) {
    takeBuild(local.id, local.unpack);
    repository = local.root();
    pom = path.join(dir, 'pom.xml');
    writeFileSync(pom, withRepository(readFileSync(POM, 'utf8'), `candidate-${path.basename(dir)}`, pathToFileURL(repository).href));
  }
  try {
    // -U: retry artifacts an earlier attempt did not find, instead of Maven's cached failure.
    await run(MVN, ['-B', '-q', '-U', '-Dstyle.color=never', '-f', pom, 'dependency:build-classpath', `-Dspanner.version=${version}`, `-Dmdep.outputFile=${classpathFile}`], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 10 * 60_000,
    });
  } catch (e) {
    throw new ClientInstallError(`Maven could not resolve ${what}: ${mavenError(e)}`);
  }
  if (repository) writeFileSync(classpathFile, fromFragment(readFileSync(classpathFile, 'utf8').trim(), repository));
  log(`compiling the Java driver against ${ARTIFACT}:${version}`);
  try {
    await run('javac', ['--release', '17', '-nowarn', '-encoding', 'UTF-8', '-cp', readFileSync(classpathFile, 'utf8').trim(), '-d', classes, ...sources], {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 5 * 60_000,
    });
  } catch (e) {
    const err = e as { code?: unknown; stderr?: string; message: string };
    if (err.code === 'ENOENT') throw new ClientInstallError('javac (a JDK 17 or newer) is needed for Java clients and is not on the PATH');
    const errors = (err.stderr ?? err.message)
      .split('\n')
      .filter((l) => /error:/.test(l))
      .slice(0, 3)
      .join(' | ');
    throw new ClientInstallError(`the Java driver does not compile against ${what}: ${errors || err.message}`);
  }
  try {
    await run('jar', ['--create', '--file', driverJar, '-C', classes, '.'], { timeout: 5 * 60_000 });
  } catch (e) {
    throw new ClientInstallError(`could not pack the Java driver's classes (jar, from the JDK): ${(e as Error).message.split('\n')[0]}`);
  }
  writeFileSync(marker, key + '\n');
  return client();
}

/** The driver's pom with one more repository (a file: URL to an unpacked fragment), snapshots on. */
function withRepository(pom: string, id: string, url: string): string {
  const repo = `  <repositories>\n    <repository>\n      <id>${id}</id>\n      <url>${url}</url>\n      <releases><enabled>true</enabled></releases>\n      <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots>\n    </repository>\n  </repositories>\n\n  <dependencies>`;
  if (!pom.includes('  <dependencies>')) throw new Error('the Java driver pom has no <dependencies>');
  return pom.replace('  <dependencies>', repo);
}

/**
 * A classpath whose jars that the fragment holds point into the fragment: an entry under a local
 * repository (.../repository/<group path>/<artifact>/<version>/<file>) whose same path exists in the
 * fragment is taken from there.
 */
export function fromFragment(classpath: string, fragment: string): string {
  return classpath
    .split(path.delimiter)
    .map((jar) => {
      const parts = jar.split(path.sep);
      for (let i = parts.length - 4; i > 0; i--) {
        const candidate = path.join(fragment, ...parts.slice(i));
        if (parts[i - 1] === 'repository' && existsSync(candidate)) return candidate;
      }
      return jar;
    })
    .join(path.delimiter);
}

/** The relevant [ERROR] sentence of a failed Maven run, without its boilerplate. */
export function mavenError(e: unknown): string {
  const err = e as { code?: unknown; stdout?: string; stderr?: string; message: string };
  if (err.code === 'ENOENT') return 'Maven (mvn) is needed for Java clients and is not on the PATH';
  const lines = `${err.stdout ?? ''}\n${err.stderr ?? ''}`
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('[ERROR]'))
    .map((l) => l.replace(/^\[ERROR\]\s*/, ''))
    .filter((l) => l);
  if (lines.length === 0) return err.message.split('\n')[0];
  let first = lines[0]
    .replace(/ -> \[Help \d+\]$/, '')
    .replace(/^Failed to execute goal (?:.*? )?on project [^:]+: /, '')
    .replace(/^Could not resolve dependencies for project [^:]+:[^:]+:[^:]+:[^:]+: /, '');
  // "The following artifacts could not be resolved: a:jar:1, b:jar:1: Could not find artifact a:jar:1 in central (...)"
  const many = /^The following artifacts could not be resolved: ((?:[^\s,:]+(?::[^\s,:]+){3,4}(?:, )?)+): (.*)$/.exec(first);
  if (many) {
    const count = many[1].split(', ').length;
    first = count > 1 ? `${many[2]} (${count - 1} more artifacts missing as well)` : many[2];
  }
  return first;
}

function jarsPresent(classpathFile: string): boolean {
  return (
    existsSync(classpathFile) &&
    readFileSync(classpathFile, 'utf8')
      .trim()
      .split(path.delimiter)
      .every((jar) => existsSync(jar))
  );
}

/** Changes when the driver's pom or sources change, so a stale cache is rebuilt. */
function driverHash(sources: string[]): string {
  const h = createHash('sha256').update(readFileSync(POM));
  for (const f of sources) h.update(path.basename(f)).update(readFileSync(f));
  return h.digest('hex');
}

/**
 * What a sandboxed Java driver reads besides /usr: each classpath entry (the driver's classes, the
 * client's jars in the Maven repository one by one), and the JDK its `java` belongs to with what the
 * JDK's links point to outside it (Debian's keeps its configuration in /etc/java-<N>-openjdk).
 */
export function javaReadOnly(launch: DriverLaunch): string[] {
  const at = launch.args.indexOf('-cp');
  const classpath = at >= 0 ? (launch.args[at + 1] ?? '').split(path.delimiter).filter(Boolean) : [];
  const homes = [javaHomeOf(launch.command), process.env.JAVA_HOME ? realpathSync(process.env.JAVA_HOME) : null].filter((h): h is string => h !== null);
  return [launch.dir, ...classpath, ...[...new Set(homes)].flatMap((home) => [home, ...linksOut(home)])];
}

/** The JDK a `java` command (a path, or a name on PATH) belongs to: <home>/bin/java, links resolved. */
function javaHomeOf(command: string): string | null {
  const java = javaBinary(command);
  return java ? path.dirname(path.dirname(java)) : null;
}

/** The binary a `java` command (a path, or a name on PATH) runs, links resolved; null when there is none. */
function javaBinary(command: string): string | null {
  const candidates = path.isAbsolute(command)
    ? [command]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((d) => path.join(d, command));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      return realpathSync(c);
    } catch {}
  }
  return null;
}

const linksOutOf = new Map<string, string[]>();

/** The folders that links under `home` lead to outside it. */
function linksOut(home: string): string[] {
  let found = linksOutOf.get(home);
  if (found) return found;
  const out = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isSymbolicLink()) {
        try {
          const target = realpathSync(p);
          if (target !== home && !target.startsWith(`${home}/`)) out.add(path.dirname(target));
        } catch {
          // A dangling link: nothing to show.
        }
      }
    }
  };
  walk(home);
  found = [...out].sort();
  linksOutOf.set(home, found);
  return found;
}
