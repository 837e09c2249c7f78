// Candidate builds with an injected regression (issue 38's calibration): the patched methods wait the
// delay and still answer as before, in both of Node's call styles; Go's functions start with the sleep;
// a release laid out otherwise is refused, naming what is missing.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ArtifactError, inspectArtifact, slowedGoBuild, slowedNodeBuild, tarGz, unpackArtifact, zipOf } from '../../src/index';

const TMP = mkdtempSync(path.join(os.tmpdir(), 'scb-slowed-'));
after(() => rmSync(TMP, { recursive: true, force: true }));

// The shape of the client's modules: classes whose methods take a callback last or return a promise.
const DATABASE = `'use strict';
class Database {
  run(query, cb) {
    const answer = [['row of ' + query.sql]];
    if (cb) return setImmediate(() => cb(null, ...answer));
    return Promise.resolve(answer);
  }
}
exports.Database = Database;
`;
const TRANSACTION = `'use strict';
class Snapshot { run(q) { return Promise.resolve([[q.sql]]); } }
class Dml extends Snapshot { runUpdate(q) { return Promise.resolve([1]); } }
class Transaction extends Dml {}
exports.Snapshot = Snapshot;
exports.Transaction = Transaction;
`;

function nodePackage(files: Record<string, string>): Buffer {
  return tarGz([
    { path: 'package/package.json', data: JSON.stringify({ name: '@google-cloud/spanner', version: '9.0.0', dependencies: { 'google-gax': '^5.0.0' } }) },
    ...Object.entries(files).map(([p, data]) => ({ path: `package/${p}`, data })),
  ]);
}

async function elapsed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = process.hrtime.bigint();
  const value = await f();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

test('node: Database.run, Snapshot.run and a transaction run and runUpdate wait the delay first, and answer as before', async () => {
  const build = slowedNodeBuild(nodePackage({ 'build/src/database.js': DATABASE, 'build/src/transaction.js': TRANSACTION }), 30);
  assert.deepEqual(build.patched, ['build/src/database.js', 'build/src/transaction.js']);
  const info = inspectArtifact('node', build.bytes);
  assert.equal(info.version, '9.0.0', 'the release keeps its version');
  const dir = path.join(TMP, 'node');
  unpackArtifact('node', build.bytes, dir);
  const require = createRequire(path.join(dir, 'package.json'));
  const { Database } = require('./build/src/database.js');
  const { Transaction } = require('./build/src/transaction.js');
  const db = new Database();
  const tx = new Transaction();

  // A timer cuts a fractional delay to whole milliseconds: at least 29 of the 30 ms, whatever the load.
  const slowed = await elapsed(() => db.run({ sql: 'SELECT 1' }));
  assert.deepEqual(slowed.value, [['row of SELECT 1']]);
  assert.ok(slowed.ms >= 29, `run waited ${slowed.ms} ms`);
  const read = await elapsed(() => tx.run({ sql: 'SELECT 2' }));
  assert.deepEqual(read.value, [['SELECT 2']]);
  assert.ok(read.ms >= 29, `a transaction's run waited ${read.ms} ms`);
  const update = await elapsed(() => tx.runUpdate({ sql: 'UPDATE' }));
  assert.deepEqual(update.value, [1]);
  assert.ok(update.ms >= 29, `runUpdate waited ${update.ms} ms`);
  // The callback style: the same answer, after the delay.
  const viaCallback = await elapsed(() => new Promise((resolve, reject) => db.run({ sql: 'SELECT 3' }, (err: Error | null, rows: unknown) => (err ? reject(err) : resolve(rows)))));
  assert.deepEqual(viaCallback.value, ['row of SELECT 3']);
  assert.ok(viaCallback.ms >= 29, `the callback came after ${viaCallback.ms} ms`);
});

test('node: a busy build keeps the CPU busy for the delay (a wait build does not), then answers as before in both call styles', () => {
  const packageOf = (injection: 'wait' | 'busy') => {
    const dir = path.join(TMP, `node-${injection}`);
    if (!existsSync(dir)) unpackArtifact('node', slowedNodeBuild(nodePackage({ 'build/src/database.js': DATABASE, 'build/src/transaction.js': TRANSACTION }), 40, injection).bytes, dir);
    return createRequire(path.join(dir, 'package.json'))('./build/src/database.js') as { Database: new () => { run: (q: { sql: string }, cb?: (e: Error | null, rows: unknown) => void) => unknown } };
  };
  // What the call itself takes before it returns: the busy loop runs inside it (the caller blocked for
  // the delay, on the CPU), the timer after it. How much of those 40 ms the scheduler grants the loop
  // depends on the machine's load, so the CPU is compared between the two builds, not to a floor.
  const call = (db: InstanceType<ReturnType<typeof packageOf>['Database']>) => {
    const before = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const answer = db.run({ sql: 'SELECT 1' });
    const blockedMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const used = process.cpuUsage(before);
    return { cpuMs: (used.user + used.system) / 1000, blockedMs, answer };
  };
  const busy = call(new (packageOf('busy').Database)());
  const wait = call(new (packageOf('wait').Database)());
  assert.ok(busy.blockedMs >= 39, `the busy call returned after ${busy.blockedMs} ms, before the 40 ms delay`);
  assert.ok(busy.cpuMs > wait.cpuMs, `the busy call used ${busy.cpuMs} ms of CPU, the waiting one ${wait.cpuMs} ms`);
  assert.ok(wait.answer instanceof Promise);
  assert.ok(busy.answer instanceof Promise);
  return (busy.answer as Promise<unknown>).then((rows) => {
    assert.deepEqual(rows, [['row of SELECT 1']]);
    return new Promise<void>((resolve, reject) =>
      new (packageOf('busy').Database)().run({ sql: 'SELECT 2' }, (err, rows) => {
        if (err) return reject(err);
        assert.deepEqual(rows, ['row of SELECT 2']);
        resolve();
      }),
    );
  });
});

test('node: a release without the files or classes the patch wraps is refused, naming them', () => {
  assert.throws(
    () => slowedNodeBuild(nodePackage({ 'build/src/database.js': DATABASE }), 5),
    (e: Error) => e instanceof ArtifactError && /no build\/src\/transaction\.js/.test(e.message),
  );
  assert.throws(
    () => slowedNodeBuild(nodePackage({ 'build/src/database.js': 'exports.x = 1;', 'build/src/transaction.js': TRANSACTION }), 5),
    (e: Error) => e instanceof ArtifactError && /database\.js defines no class Database/.test(e.message),
  );
  assert.throws(() => slowedNodeBuild(nodePackage({ 'build/src/database.js': DATABASE, 'build/src/transaction.js': TRANSACTION }), -1), /the delay must be 0 to 60,000 ms/);
});

const GO_TRANSACTION = `package spanner

import (
	"context"
	"time"
)

func (t *txReadOnly) ReadRow(ctx context.Context, table string, key Key, columns []string) (*Row, error) {
	return nil, nil
}

func (t *txReadOnly) Query(ctx context.Context, statement Statement) *RowIterator {
	return t.QueryWithOptions(ctx, statement, t.qo)
}

func (t *ReadWriteTransaction) Update(ctx context.Context, stmt Statement) (rowCount int64, err error) {
	return 0, nil
}

var _ = time.Second
`;

const goZip = (transaction: string) =>
  zipOf([
    { path: 'cloud.google.com/go/spanner@v1.96.1/go.mod', data: 'module cloud.google.com/go/spanner\n\ngo 1.23\n' },
    { path: 'cloud.google.com/go/spanner@v1.96.1/transaction.go', data: transaction },
    { path: 'cloud.google.com/go/spanner@v1.96.1/client.go', data: 'package spanner\n' },
  ]);

test('go: Query, ReadRow and Update start with a sleep of the delay in nanoseconds; the module and version stay', () => {
  const build = slowedGoBuild(goZip(GO_TRANSACTION), 1.5);
  assert.deepEqual(build.patched, ['transaction.go']);
  const info = inspectArtifact('go', build.bytes);
  assert.equal(info.version, 'v1.96.1');
  const dir = path.join(TMP, 'go');
  unpackArtifact('go', build.bytes, dir);
  const source = readFileSync(path.join(dir, 'transaction.go'), 'utf8');
  const sleeps = source.match(/^\ttime\.Sleep\(time\.Duration\(1500000\)\)/gm) ?? [];
  assert.equal(sleeps.length, 3, source);
  assert.match(source, /Query\(ctx context\.Context, statement Statement\) \*RowIterator \{\n\ttime\.Sleep/);
  assert.match(source, /return t\.QueryWithOptions/, 'the original body follows');
});

test('go: a busy build starts Query, ReadRow and Update with a loop on the clock for the delay, in place of the sleep', () => {
  const build = slowedGoBuild(goZip(GO_TRANSACTION), 1.5, 'busy');
  const dir = path.join(TMP, 'go-busy');
  unpackArtifact('go', build.bytes, dir);
  const source = readFileSync(path.join(dir, 'transaction.go'), 'utf8');
  const loops = source.match(/^\tfor scbStart := time\.Now\(\); time\.Since\(scbStart\) < time\.Duration\(1500000\); \{ \/\/ .*\n\t\}$/gm) ?? [];
  assert.equal(loops.length, 3, source);
  assert.doesNotMatch(source, /time\.Sleep/);
  assert.match(source, /\n\t\}\n\treturn t\.QueryWithOptions/, 'the original body follows the loop');
});

test('go: a module whose functions are laid out otherwise is refused, naming the function', () => {
  assert.throws(
    () => slowedGoBuild(goZip(GO_TRANSACTION.replace('func (t *ReadWriteTransaction) Update(', 'func (t *ReadWriteTransaction) UpdateX(')), 1),
    (e: Error) => e instanceof ArtifactError && /transaction\.go has no "func \(t \*ReadWriteTransaction\) Update\(/.test(e.message),
  );
  assert.throws(() => slowedGoBuild(goZip(GO_TRANSACTION.replace('\t"time"\n', '')), 1), /does not import "time"/);
});
