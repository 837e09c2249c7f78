import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { SEMVER } from '@scb/shared/job';
import { ClientInstallError, oneAtATime, type DriverLaunch, type InstallContext } from '../plugin';
import { JAVA_ARTIFACT as ARTIFACT } from './registry';

const run = promisify(execFile);
const MVN = process.platform === 'win32' ? 'mvn.cmd' : 'mvn';
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

async function install(version: string, ctx: InstallContext): Promise<JavaClient> {
  const log = ctx.log;
  const dir = path.join(ctx.cacheDir, 'clients', 'java', version);
  const classes = path.join(dir, 'classes');
  const classpathFile = path.join(dir, 'classpath.txt');
  const marker = path.join(dir, '.installed');
  const sources = readdirSync(SOURCES)
    .filter((f) => f.endsWith('.java'))
    .sort()
    .map((f) => path.join(SOURCES, f));
  const key = driverHash(sources);
  const client = (): JavaClient => {
    const classpath = [classes, readFileSync(classpathFile, 'utf8').trim()].join(path.delimiter);
    return { version, classpath, command: 'java', args: ['-cp', classpath, 'bench.JavaDriver'], dir };
  };
  // Reuse the cache unless the driver changed or a jar it lists is gone (e.g. ~/.m2 was cleared).
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === key && jarsPresent(classpathFile)) return client();

  // When Maven Central's metadata cannot be read, Maven itself is the judge.
  const listed = await ctx.published().catch((e: Error) => {
    log(`${e.message}; letting Maven decide`);
    return undefined;
  });
  if (listed && !listed.includes(version)) {
    throw new ClientInstallError(`${ARTIFACT}:${version} is not published on Maven Central (newest: ${listed.at(-1) ?? 'unknown'})`);
  }
  log(`resolving ${ARTIFACT}:${version} with Maven into ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(classes, { recursive: true });
  try {
    // -U: retry artifacts an earlier attempt did not find, instead of Maven's cached failure.
    await run(MVN, ['-B', '-q', '-U', '-Dstyle.color=never', '-f', POM, 'dependency:build-classpath', `-Dspanner.version=${version}`, `-Dmdep.outputFile=${classpathFile}`], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 10 * 60_000,
    });
  } catch (e) {
    throw new ClientInstallError(`Maven could not resolve ${ARTIFACT}:${version}: ${mavenError(e)}`);
  }
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
    throw new ClientInstallError(`the Java driver does not compile against ${ARTIFACT}:${version}: ${errors || err.message}`);
  }
  writeFileSync(marker, key + '\n');
  return client();
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
  const candidates = path.isAbsolute(command)
    ? [command]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((d) => path.join(d, command));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      return path.dirname(path.dirname(realpathSync(c)));
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
