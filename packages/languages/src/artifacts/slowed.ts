// Candidate builds with a known regression (issue 38's calibration): a published release, patched so
// that every query it runs spends a fixed delay first, uploaded as a candidate build (POST
// /api/artifacts). By default the delay is a wait (a timer or sleep): it adds the same time to each
// operation's latency whatever the load, as an extra round trip or a lock wait would. `busy` keeps the
// calling thread's CPU busy instead, as a slower client's own work (a decoder's) would: on Node's one
// event loop it also holds up the other agents, so it grows with concurrency, and it is what a scan
// scenario's CPU per row measures.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Injection } from '@scb/shared/calibration';
import { SEMVER } from '@scb/shared/job';
import { NODE_PACKAGE, NPM } from '../node/registry';
import { ArtifactError, DEFAULT_ARTIFACT_LIMITS, gunzipBounded } from './archive';
import { readTar, tarGz, type TarInput } from './tar';
import { PYTHON_MODULE } from './builds';
import { rewriteWheel } from './wheel';
import { readZip, zipOf, type ZipInput } from './zip';

const run = promisify(execFile);

/** The tarball npm publishes for @google-cloud/spanner at `version` (npm pack of the registry's; nothing runs). */
export async function publishedNodeTarball(version: string): Promise<Buffer> {
  if (!SEMVER.test(version)) throw new ArtifactError(`"${version}" is not a plain semver version`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-pack-'));
  try {
    await run(NPM, ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir, `${NODE_PACKAGE}@${version}`], { cwd: dir, timeout: 5 * 60_000 });
    const file = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    if (!file) throw new ArtifactError(`npm pack wrote no tarball of ${NODE_PACKAGE}@${version}`);
    return readFileSync(path.join(dir, file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The code appended to a module of the Node client: wraps each named method of each class so that a
 * call waits `delayMs` on a timer (with `busy`: keeps the event loop busy that long), then runs the
 * original (a callback as the last argument, or a promise). Appended after the module's promisifyAll, so the wrapper is what the application calls.
 */
export function nodeDelaySnippet(classes: Record<string, string[]>, delayMs: number, injection: Injection = 'wait'): string {
  if (!(delayMs >= 0 && delayMs <= 60_000)) throw new RangeError(`the delay must be 0 to 60,000 ms, not ${delayMs}`);
  const targets = Object.entries(classes).flatMap(([cls, methods]) => methods.map((m) => [cls, m] as const));
  for (const [cls, m] of targets) if (!/^[A-Za-z_$][\w$]*$/.test(cls) || !/^[A-Za-z_$][\w$]*$/.test(m)) throw new RangeError(`${cls}.${m} is not a class and method name`);
  const slow =
    injection === 'busy'
      ? [
          // The event loop itself kept busy, then the call as it was (either call style).
          '  const __scbSlow = (orig) => function (...args) {',
          '    const end = performance.now() + __scbDelayMs;',
          '    while (performance.now() < end);',
          '    return orig.apply(this, args);',
          '  };',
        ]
      : [
          '  const __scbSlow = (orig) => function (...args) {',
          "    if (typeof args[args.length - 1] === 'function') {",
          '      setTimeout(() => orig.apply(this, args), __scbDelayMs);',
          '      return undefined;',
          '    }',
          '    return new Promise((resolve) => setTimeout(resolve, __scbDelayMs)).then(() => orig.apply(this, args));',
          '  };',
        ];
  return [
    '',
    `// spanner-client-bench calibration: every call below ${injection === 'busy' ? 'keeps the CPU busy' : 'waits on a timer'} for ${delayMs} ms first (an injected regression).`,
    '{',
    `  const __scbDelayMs = ${JSON.stringify(delayMs)};`,
    ...slow,
    ...targets.map(([cls, m]) => `  ${cls}.prototype.${m} = __scbSlow(${cls}.prototype.${m});`),
    '}',
    '',
  ].join('\n');
}

/** Where the Node client's query methods live, per file of its package: every query an operation runs goes through one of them. */
export const NODE_SLOWED_METHODS: Record<string, Record<string, string[]>> = {
  // database.run (select1, scans by run()), database.runPartitionedUpdate is not an operation.
  'build/src/database.js': { Database: ['run'] },
  // snapshot.run (leaderboard reads) and, inherited, a read-write transaction's run and runUpdate.
  'build/src/transaction.js': { Snapshot: ['run'], Dml: ['runUpdate'] },
};

export interface SlowedBuild {
  bytes: Buffer;
  /** The files patched, as package-relative paths. */
  patched: string[];
}

/**
 * A published Node client's tarball (npm pack's .tgz), with NODE_SLOWED_METHODS wrapped to wait
 * `delayMs` first; otherwise the same files, version and dependencies. Throws ArtifactError when the
 * tarball lacks a file or a class the patch needs (another layout of the package).
 */
export function slowedNodeBuild(tgz: Buffer, delayMs: number, injection: Injection = 'wait'): SlowedBuild {
  const entries = readTar(gunzipBounded(tgz, DEFAULT_ARTIFACT_LIMITS), DEFAULT_ARTIFACT_LIMITS);
  const out: TarInput[] = [];
  const patched: string[] = [];
  for (const e of entries) {
    if (e.kind === 'dir') {
      out.push({ path: e.name, type: 'dir' });
      continue;
    }
    if (e.kind !== 'file') throw new ArtifactError(`the tarball holds ${e.name}, which is not a file or folder`);
    const rel = e.name.replace(/^[^/]+\//, '');
    const methods = NODE_SLOWED_METHODS[rel];
    let data = e.data;
    if (methods) {
      const source = data.toString('utf8');
      for (const cls of Object.keys(methods))
        if (!new RegExp(`\\bclass ${cls}\\b`).test(source)) throw new ArtifactError(`${rel} defines no class ${cls}: this release's layout differs from what the slowed build patches`);
      data = Buffer.from(source + nodeDelaySnippet(methods, delayMs, injection));
      patched.push(rel);
    }
    out.push({ path: e.name, data, mode: e.mode || 0o644 });
  }
  const missing = Object.keys(NODE_SLOWED_METHODS).filter((f) => !patched.includes(f));
  if (missing.length) throw new ArtifactError(`the tarball has no ${missing.join(', ')}: this release's layout differs from what the slowed build patches`);
  return { bytes: tarGz(out), patched };
}

// ---- Go: the module zip the proxy serves, with a sleep at the start of the query path -----------

/**
 * Where the Go client's query path starts, per file of its module: a call of each waits the delay
 * first. txReadOnly.Query carries Single().Query (select1, scans) and a transaction's Query (the
 * leaderboard read, a read-write transaction's read); ReadRow and a transaction's Update the others.
 */
export const GO_SLOWED_FUNCTIONS: Record<string, string[]> = {
  'transaction.go': [
    'func (t *txReadOnly) Query(ctx context.Context, statement Statement) *RowIterator {',
    'func (t *txReadOnly) ReadRow(ctx context.Context, table string, key Key, columns []string) (*Row, error) {',
    'func (t *ReadWriteTransaction) Update(ctx context.Context, stmt Statement) (rowCount int64, err error) {',
  ],
};

/**
 * A Go module zip (golang.org/x/mod/zip: every path under <module>@<version>/) with the first statement
 * of each of GO_SLOWED_FUNCTIONS a `time.Sleep` of `delayMs` (a goroutine's sleep: the wait alone, no
 * CPU, as Node's timer), or with `busy` a loop on the clock that long. The same module path and version;
 * throws ArtifactError when a function is not
 * where this patch looks for it (another layout of the module).
 */
export function slowedGoBuild(zip: Buffer, delayMs: number, injection: Injection = 'wait'): SlowedBuild {
  if (!(delayMs >= 0 && delayMs <= 60_000)) throw new RangeError(`the delay must be 0 to 60,000 ms, not ${delayMs}`);
  const entries = readZip(zip, DEFAULT_ARTIFACT_LIMITS);
  const out: ZipInput[] = [];
  const patched: string[] = [];
  const ns = Math.round(delayMs * 1e6);
  const sleep =
    injection === 'busy'
      ? `\tfor scbStart := time.Now(); time.Since(scbStart) < time.Duration(${ns}); { // spanner-client-bench calibration: an injected regression, the CPU kept busy\n\t}\n`
      : `\ttime.Sleep(time.Duration(${ns})) // spanner-client-bench calibration: an injected regression\n`;
  for (const e of entries) {
    if (e.kind === 'dir') {
      out.push({ path: e.name.endsWith('/') ? e.name : `${e.name}/` });
      continue;
    }
    if (e.kind !== 'file') throw new ArtifactError(`the module zip holds ${e.name}, which is not a file or folder`);
    const rel = e.name.replace(/^[^/]+(\/[^/@]+)*@[^/]+\//, '');
    const functions = GO_SLOWED_FUNCTIONS[rel];
    let data = e.data;
    if (functions) {
      let source = data.toString('utf8');
      if (!/^\s*"time"$/m.test(source)) throw new ArtifactError(`${rel} does not import "time": this release's layout differs from what the slowed build patches`);
      for (const f of functions) {
        if (!source.includes(`${f}\n`)) throw new ArtifactError(`${rel} has no ${JSON.stringify(f)}: this release's layout differs from what the slowed build patches`);
        source = source.replace(`${f}\n`, `${f}\n${sleep}`);
      }
      data = Buffer.from(source);
      patched.push(rel);
    }
    out.push({ path: e.name, data });
  }
  const missing = Object.keys(GO_SLOWED_FUNCTIONS).filter((f) => !patched.includes(f));
  if (missing.length) throw new ArtifactError(`the module zip has no ${missing.join(', ')}: this release's layout differs from what the slowed build patches`);
  return { bytes: zipOf(out), patched };
}

// ---- Python: the wheel PyPI serves, with a sleep before each query method ----------------------

/** The wheel PyPI serves for google-cloud-spanner at `version` (pip download, wheels only, no dependencies; nothing runs). */
export async function publishedPythonWheel(version: string): Promise<Buffer> {
  if (!SEMVER.test(version)) throw new ArtifactError(`"${version}" is not a plain semver version`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-wheel-'));
  try {
    await run('python3', ['-m', 'pip', 'download', '--only-binary=:all:', '--no-deps', '--no-input', '--disable-pip-version-check', '-q', '-d', dir, `${PYTHON_MODULE}==${version}`], {
      cwd: dir,
      timeout: 5 * 60_000,
    });
    const file = readdirSync(dir).find((f) => f.endsWith('.whl'));
    if (!file) throw new ArtifactError(`pip downloaded no wheel of ${PYTHON_MODULE} ${version}`);
    return readFileSync(path.join(dir, file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Where the Python client's query methods live, per module of its wheel: the read and the query of a
 * snapshot (select1, scans, the leaderboard and point reads, and, inherited, a transaction's query) and
 * a transaction's DML (readWriteTxn).
 */
export const PYTHON_SLOWED_METHODS: Record<string, Record<string, string[]>> = {
  'google/cloud/spanner_v1/snapshot.py': { _SnapshotBase: ['read', 'execute_sql'] },
  'google/cloud/spanner_v1/transaction.py': { Transaction: ['execute_update'] },
};

/** The code appended to a module of the Python client: each named method sleeps `delayMs` (time.sleep: the wait alone, the GIL released), or with `busy` loops on the clock that long (the GIL held), then runs. */
export function pythonDelaySnippet(classes: Record<string, string[]>, delayMs: number, injection: Injection = 'wait'): string {
  if (!(delayMs >= 0 && delayMs <= 60_000)) throw new RangeError(`the delay must be 0 to 60,000 ms, not ${delayMs}`);
  const targets = Object.entries(classes).flatMap(([cls, methods]) => methods.map((m) => [cls, m] as const));
  for (const [cls, m] of targets) if (!/^[A-Za-z_]\w*$/.test(cls) || !/^[A-Za-z_]\w*$/.test(m)) throw new RangeError(`${cls}.${m} is not a class and method name`);
  return [
    '',
    `# spanner-client-bench calibration: every call below ${injection === 'busy' ? 'keeps the CPU busy (the GIL held) for' : 'sleeps'} ${delayMs} ms first (an injected regression).`,
    'import functools as _scb_functools',
    'import time as _scb_time',
    '',
    '',
    'def _scb_slow(orig):',
    '    @_scb_functools.wraps(orig)',
    '    def slowed(*args, **kwargs):',
    ...(injection === 'busy'
      ? [`        _scb_end = _scb_time.perf_counter() + ${JSON.stringify(delayMs / 1000)}`, '        while _scb_time.perf_counter() < _scb_end:', '            pass']
      : [`        _scb_time.sleep(${JSON.stringify(delayMs / 1000)})`]),
    '        return orig(*args, **kwargs)',
    '',
    '    return slowed',
    '',
    '',
    ...targets.map(([cls, m]) => `${cls}.${m} = _scb_slow(${cls}.${m})`),
    '',
  ].join('\n');
}

/**
 * A published wheel of the Python client with PYTHON_SLOWED_METHODS sleeping `delayMs` first; the same
 * files, version and dependencies otherwise, RECORD made again. Throws ArtifactError when a module or a
 * class the patch needs is not in the wheel (another layout of the package).
 */
export function slowedPythonBuild(whl: Buffer, delayMs: number, injection: Injection = 'wait'): SlowedBuild {
  const patched: string[] = [];
  const bytes = rewriteWheel(whl, {
    change: (name, data) => {
      const methods = PYTHON_SLOWED_METHODS[name];
      if (!methods) return undefined;
      const source = data.toString('utf8');
      for (const [cls, names] of Object.entries(methods)) {
        if (!new RegExp(`^class ${cls}\\b`, 'm').test(source)) throw new ArtifactError(`${name} defines no class ${cls}: this release's layout differs from what the slowed build patches`);
        for (const m of names)
          if (!new RegExp(`^    def ${m}\\(`, 'm').test(source)) throw new ArtifactError(`${name} has no ${cls}.${m}: this release's layout differs from what the slowed build patches`);
      }
      patched.push(name);
      return Buffer.from(source + pythonDelaySnippet(methods, delayMs, injection));
    },
  });
  const missing = Object.keys(PYTHON_SLOWED_METHODS).filter((f) => !patched.includes(f));
  if (missing.length) throw new ArtifactError(`the wheel has no ${missing.join(', ')}: this release's layout differs from what the slowed build patches`);
  return { bytes, patched };
}
