// The scan operation on the emulator target: the runner provisions the shape's table in a fresh
// emulator per cell and fills it with the generated values; Node, Java and Go query it (ORDER BY the
// row's index) and each column's checksum over the rows in order agrees with the fake's. The whole-table
// shape (100,000 rows) runs in `npm run bench:result-sets -- --preset result-set-whole-table --emulator`,
// not here. Without the emulator binary this file fails with the runner's one-sentence message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { v1 } from '@google-cloud/spanner';
import { grpc } from 'google-gax';
import { prepareDriver } from '@scb/languages';
import { COLUMN_TYPES, columnChecksums, generateRows, parseJobSpec, planCells, ResultSetSchema, resultSetSql, resultSetTable, type WireValue } from '@scb/shared';
import { runCell } from '../../apps/runner/src/cell';
import { CACHE_DIR } from '../../apps/runner/src/paths';
import { findEmulatorBinary, missingEmulatorMessage } from '../../packages/targets/src/emulator/binary';
import { startEmulatorProcess } from '../../packages/targets/src/emulator/process';
import { MUTATIONS_PER_COMMIT, provision, rowsPerCommit } from '../../packages/targets/src/emulator/provision';
import { RESULT_SET_PRESETS } from '../../packages/shared/src/job/result-set-presets';

const sized = (type: string) => /STRING|BYTES|JSON/.test(type);
/** Every scalar and array type the emulator (1.5.28) takes, FLOAT32 included, a tenth NULL. */
// UUID left out: emulator 1.5.28 cannot create a UUID column (docs/findings/result-sets.md).
const EVERY_TYPE = { rows: 20, columns: COLUMN_TYPES.filter((type) => !type.includes('UUID')).map((type) => ({ type, nullFraction: 0.1, ...(sized(type) ? { bytes: 40 } : {}) })), seed: 7 };

test('Node, Java and Go scan a table of every type the emulator provisioned per cell: rows in generation order, every checksum agrees', { timeout: 15 * 60_000 }, async () => {
  const parsed = parseJobSpec({
    clients: [
      { language: 'node', version: '9.0.0' },
      { language: 'java', version: '6.123.0' },
      { language: 'go', version: '1.96.1' },
    ],
    configurations: [{ label: 'client default' }],
    concurrency: [1],
    target: { kind: 'emulator' },
    workload: { operation: 'scan', warmupOps: 2, measuredOps: 10, resultSet: EVERY_TYPE },
  });
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  const spec = parsed.value;
  const plans = planCells(spec);
  assert.equal(plans.length, 3);
  for (const plan of plans) {
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const what = `${plan.client.language} ${plan.client.version}`;
    const outcome = await runCell(spec, plan, launch).catch((e: Error) => e);
    assert.ok(!(outcome instanceof Error), `${what}: ${(outcome as Error).message}`);
    const r = outcome.result;
    assert.deepEqual(r.errors, {}, `${what}: ${JSON.stringify(r.errors)}`);
    assert.equal(r.count, 10, what);
    assert.equal(r.operations.scan?.count, 10, what);
    // Through the tap: sessions, 2 warm-up and 10 measured queries at least.
    assert.ok((outcome.channels?.totalRpcs ?? 0) >= 12, `${what}: the tap saw ${outcome.channels?.totalRpcs} RPCs`);
  }
});

test("the table is made once on an emulator the user runs, a half-filled one is completed, and the query's rows are the generated ones in order", { timeout: 120_000 }, async () => {
  const binary = findEmulatorBinary();
  assert.ok(binary, missingEmulatorMessage());
  const shape = ResultSetSchema.parse({ ...EVERY_TYPE, rows: 300 });
  // Commits stay within Cloud Spanner's 80,000 mutated cells (the emulator itself does not enforce it).
  const whole = ResultSetSchema.parse(RESULT_SET_PRESETS.find((p) => p.id === 'result-set-whole-table')!.spec.workload!.resultSet);
  for (const s of [shape, whole]) assert.ok(rowsPerCommit(s) * (s.columns.length + 1) <= MUTATIONS_PER_COMMIT);
  const emulator = await startEmulatorProcess(binary);
  const names = { projectId: 'scan-project', instanceId: 'scan-instance', databaseId: 'scan-db' };
  const options = { projectId: names.projectId, servicePath: '127.0.0.1', port: emulator.port, sslCreds: grpc.credentials.createInsecure(), universeDomain: 'googleapis.com' };
  const data = new v1.SpannerClient(options);
  try {
    await provision('127.0.0.1', emulator.port, names, 0, shape);
    const database = `projects/${names.projectId}/instances/${names.instanceId}/databases/${names.databaseId}`;
    const [session] = await data.createSession({ database });
    type Value = { kind?: string; listValue?: { values?: Value[] } } & Record<string, unknown>;
    const wire = (v: Value): WireValue => (v.kind === 'nullValue' ? null : v.kind === 'listValue' ? (v.listValue?.values ?? []).map(wire) : (v[v.kind!] as WireValue));
    const scan = async () => {
      const [result] = await data.executeSql({ session: session.name, sql: resultSetSql(shape) });
      return (result.rows ?? []).map((row) => (row.values ?? []).map((v) => wire(v as Value)));
    };
    const want = columnChecksums(shape.columns, generateRows(shape));
    assert.deepEqual(columnChecksums(shape.columns, await scan()), want, 'the rows as generated, in order');
    // A cell that stopped half-way: the next provisioning completes the table.
    const table = resultSetTable(shape);
    await data.commit({
      session: session.name,
      singleUseTransaction: { readWrite: {} },
      mutations: [{ delete: { table, keySet: { ranges: [{ startClosed: { values: [{ stringValue: '150' }] }, endClosed: { values: [{ stringValue: '299' }] } }] } } }],
    });
    assert.equal((await scan()).length, 150);
    await provision('127.0.0.1', emulator.port, names, 0, shape);
    assert.deepEqual(columnChecksums(shape.columns, await scan()), want, 'completed');
    // A full table is taken as it is (its name says which values it holds): the next cell writes nothing.
    await data.commit({
      session: session.name,
      singleUseTransaction: { readWrite: {} },
      mutations: [{ update: { table, columns: ['k', 'c1'], values: [{ values: [{ stringValue: '0' }, { stringValue: '42' }] }] } }],
    });
    await provision('127.0.0.1', emulator.port, names, 0, shape);
    const after = columnChecksums(shape.columns, await scan());
    assert.notEqual(after[1], want[1], 'the changed value is still there');
    assert.deepEqual([after[0], ...after.slice(2)], [want[0], ...want.slice(2)]);
    await data.deleteSession({ name: session.name });
  } finally {
    await data.close();
    await emulator.stop();
  }
});
