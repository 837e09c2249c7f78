// Class Data Sharing (AppCDS) for the Java driver of a published version: a JVM start maps the client's
// few thousand classes, already parsed and verified, from an archive instead of loading them from the
// jars (docs/findings/2026-11-26-java-driver-class-sharing.md: about 40% less CPU per start). Only class
// loading changes: the same bytecode runs, and the JIT compiles it as before.
//
// The archive is made once per driver classpath and JVM, kept in the client's folder beside the driver
// build: the first cells run with -XX:DumpLoadedClassList (the classes they load, one file per JVM), and
// the next preparation of that client turns a finished list into an archive (java -Xshare:dump), checks
// that the JVM takes it, and from then on every start maps it. A missing, refused or failed archive
// leaves the driver as it was: no archive, and no word on the cell.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A class every list of a JVM that got as far as building the client holds. */
const CLIENT_CLASS = 'com/google/cloud/spanner/SpannerOptions';

/** The archive's files in `dir` for one classpath and one JVM (`java`: the binary's real path). */
function files(dir: string, classpath: string, java: string) {
  const key = createHash('sha256').update(`${java}\0${classpath}`).digest('hex').slice(0, 16);
  const folder = path.join(dir, 'class-sharing');
  return {
    folder,
    archive: path.join(folder, `${key}.jsa`),
    refused: path.join(folder, `${key}.refused`),
    // %p: the JVM's pid, so that cells running side by side write a list each.
    list: path.join(folder, `${key}-classes-%p.lst`),
    lists: () =>
      existsSync(folder)
        ? readdirSync(folder)
            .filter((f) => f.startsWith(`${key}-classes-`) && f.endsWith('.lst'))
            .map((f) => path.join(folder, f))
        : [],
  };
}

/**
 * The JVM options of a start of the driver on `classpath`: the archive when there is one, else the
 * list of the classes this JVM loads (for the archive to come), else none (the archive was refused).
 */
export function classSharingArgs(dir: string, classpath: string, java: string | null): string[] {
  if (!java) return [];
  const f = files(dir, classpath, java);
  if (existsSync(f.archive)) return [`-XX:SharedArchiveFile=${f.archive}`];
  if (existsSync(f.refused)) return [];
  mkdirSync(f.folder, { recursive: true });
  return [`-XX:DumpLoadedClassList=${f.list}`];
}

/** Whether the JVM that wrote a list (its pid in the name) is still running. */
function running(list: string): boolean {
  const pid = Number(/-pid(\d+)\.lst$/.exec(list)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Makes the archive of `classpath` from the largest finished class list, when there is no archive
 * yet and none was refused; the caller holds the client folder's lock. Never throws: a dump or a
 * check that fails leaves a .refused note (its reason) and the driver runs without an archive.
 */
export async function archiveClasses(dir: string, classpath: string, java: string | null, log: (line: string) => void): Promise<void> {
  if (!java) return;
  const f = files(dir, classpath, java);
  if (existsSync(f.archive) || existsSync(f.refused)) return;
  const finished = f.lists().filter((l) => !running(l));
  // A JVM that ended before it built the client (a refused option, a bad cell) says little: dropped.
  const useful = finished.filter((l) => readFileSync(l, 'utf8').includes(CLIENT_CLASS)).sort((a, b) => statSync(b).size - statSync(a).size);
  for (const l of finished) if (l !== useful[0]) rmSync(l, { force: true });
  const list = useful[0];
  if (!list) return;
  const tmp = `${f.archive}.${process.pid}.tmp`;
  log(`archiving the Java driver's classes for class data sharing (${path.basename(f.archive)})`);
  try {
    await run(java, ['-Xshare:dump', `-XX:SharedClassListFile=${list}`, `-XX:SharedArchiveFile=${tmp}`, '-cp', classpath], { maxBuffer: 16 * 1024 * 1024, timeout: 5 * 60_000 });
    // -Xshare:on: the JVM refuses to start rather than run without the archive it cannot map.
    await run(java, ['-Xshare:on', `-XX:SharedArchiveFile=${tmp}`, '-cp', classpath, '-version'], { timeout: 60_000 });
    renameSync(tmp, f.archive);
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    const why = (err.stderr ?? '').split('\n').find((l) => /error|unable|cannot/i.test(l)) ?? err.message.split('\n')[0];
    log(`no class data sharing for this driver: ${why}`);
    writeFileSync(f.refused, `${why}\n`);
    rmSync(tmp, { force: true });
  }
  rmSync(list, { force: true });
}
