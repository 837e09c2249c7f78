// The Java driver's class data sharing, its bookkeeping without a JVM: which option a start gets, which
// class lists an archive is made from, and that a dump that fails leaves the driver without an archive
// for good. The JVM's side (the archive made and taken) is in test/integration/java-driver.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { archiveClasses, classSharingArgs } from '../../src/java/class-sharing';

const CLASSPATH = '/x/driver.jar:/x/google-cloud-spanner.jar';
/** A `java` whose every run fails, as a JVM that refuses to dump would. */
const FAILING_JAVA = '/bin/false';

/** A client folder of its own, removed after. */
async function inFolder(body: (f: { dir: string; sharing: string }) => void | Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-class-sharing-'));
  try {
    await body({ dir, sharing: path.join(dir, 'class-sharing') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a start lists its classes until there is an archive, then maps the archive; a refused one gets neither; no java, no option', () =>
  inFolder((f) => {
    const [list] = classSharingArgs(f.dir, CLASSPATH, '/usr/bin/java');
    assert.match(list ?? '', /^-XX:DumpLoadedClassList=.*\/class-sharing\/[0-9a-f]{16}-classes-%p\.lst$/);
    const key = path.basename(list!).slice(0, 16);
    writeFileSync(path.join(f.sharing, `${key}.jsa`), 'archive');
    assert.deepEqual(classSharingArgs(f.dir, CLASSPATH, '/usr/bin/java'), [`-XX:SharedArchiveFile=${path.join(f.sharing, `${key}.jsa`)}`]);
    // Another JVM or another classpath is another archive.
    assert.match(classSharingArgs(f.dir, CLASSPATH, '/opt/jdk-25/bin/java')[0] ?? '', /DumpLoadedClassList/);
    assert.match(classSharingArgs(f.dir, `${CLASSPATH}:/x/more.jar`, '/usr/bin/java')[0] ?? '', /DumpLoadedClassList/);
    writeFileSync(path.join(f.sharing, `${key}.refused`), 'no');
    rmSync(path.join(f.sharing, `${key}.jsa`));
    assert.deepEqual(classSharingArgs(f.dir, CLASSPATH, '/usr/bin/java'), []);
    assert.deepEqual(classSharingArgs(f.dir, CLASSPATH, null), []);
  }));

test("the archive comes from a finished JVM's list that got as far as the client; a failed dump is noted and not tried again", () =>
  inFolder(async (f) => {
    const [option] = classSharingArgs(f.dir, CLASSPATH, FAILING_JAVA);
    const listOf = (pid: number) => option!.slice('-XX:DumpLoadedClassList='.length).replace('%p', `pid${pid}`);
    mkdirSync(f.sharing, { recursive: true });
    // A JVM still running (this process), and one that ended before it built the client: no archive.
    writeFileSync(listOf(process.pid), 'java/lang/Object id: 0\ncom/google/cloud/spanner/SpannerOptions id: 1\n');
    writeFileSync(listOf(2 ** 22 + 1), 'java/lang/Object id: 0\n');
    const log: string[] = [];
    await archiveClasses(f.dir, CLASSPATH, FAILING_JAVA, (l) => log.push(l));
    assert.equal(log.length, 0);
    assert.deepEqual(readdirSync(f.sharing), [path.basename(listOf(process.pid))], "the useless list is dropped, the running JVM's kept");

    // A finished list with the client in it: the dump runs, fails, and leaves a note; the start then gets no option.
    writeFileSync(listOf(2 ** 22 + 2), 'java/lang/Object id: 0\ncom/google/cloud/spanner/SpannerOptions id: 1\n');
    await archiveClasses(f.dir, CLASSPATH, FAILING_JAVA, (l) => log.push(l));
    assert.match(log[0] ?? '', /^archiving the Java driver's classes/);
    assert.match(log[1] ?? '', /^no class data sharing for this driver: /);
    const note = readdirSync(f.sharing).find((n) => n.endsWith('.refused'));
    assert.ok(note && readFileSync(path.join(f.sharing, note), 'utf8').trim().length > 0, readdirSync(f.sharing).join(', '));
    assert.ok(!readdirSync(f.sharing).some((n) => n.endsWith('.jsa') || n.endsWith('.tmp')), 'no archive, no half-written one');
    assert.deepEqual(classSharingArgs(f.dir, CLASSPATH, FAILING_JAVA), []);
    await archiveClasses(f.dir, CLASSPATH, FAILING_JAVA, (l) => log.push(l));
    assert.equal(log.length, 2, 'not tried again');
  }));
