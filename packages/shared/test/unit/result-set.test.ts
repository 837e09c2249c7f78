// The scan workload's spec: what it refuses and why, and the values and checksums it stands for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COLUMN_TYPES,
  canonicalText,
  columnChecksums,
  columnDdlType,
  driverResultSet,
  generateRows,
  parseJobSpec,
  ResultSetSchema,
  resultSetDdl,
  resultSetSql,
  resultSetTable,
  timestampCanonical,
} from '../../src/index';

const spec = (workload: object, target: object = { kind: 'fake' }) => ({
  clients: [{ language: 'node', version: '9.0.0' }],
  configurations: [{ label: 'default' }],
  concurrency: [1],
  target,
  workload: { warmupOps: 1, measuredOps: 10, ...workload },
});
const issues = (input: object) => {
  const r = parseJobSpec(input);
  return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
};

test('scan needs a resultSet and a resultSet needs scan; each bad field is named with its reason', () => {
  const shape = { rows: 10, columns: [{ type: 'STRING', bytes: 8 }] };
  assert.deepEqual(issues(spec({ operation: 'scan', resultSet: shape })), []);
  assert.match(issues(spec({ operation: 'scan' })).join(), /^workload\.resultSet: is required by the scan operation/);
  assert.match(issues(spec({ operation: 'select1', resultSet: shape })).join(), /^workload\.resultSet: is the result of the scan operation/);
  assert.deepEqual(
    issues(spec({ operation: 'scan', resultSet: { rows: 0, columns: [{ type: 'INT64', bytes: 4 }, { type: 'ARRAY<DATE>', nullFraction: 2 }, { type: 'UUIDX' }] } })).map((i) => i.split(':')[0]),
    ['workload.resultSet.rows', 'workload.resultSet.columns.1.nullFraction', 'workload.resultSet.columns.2.type'],
  );
  assert.match(issues(spec({ operation: 'scan', resultSet: { rows: 10, columns: [{ type: 'INT64', bytes: 4 }] } })).join(), /columns\.0\.bytes: sizes STRING, BYTES and JSON values, not INT64/);
  assert.match(
    issues(spec({ operation: 'scan', resultSet: { rows: 100_000, columns: [{ type: 'STRING', bytes: 10_000 }] } })).join(),
    /workload\.resultSet\.rows: the result would weigh about 1000 MB/,
  );
  assert.deepEqual(issues(spec({ operation: 'scan', resultSet: shape }, { kind: 'emulator' })), [], 'the emulator provisions the table');
  const spanner = { kind: 'spanner', projectId: 'my-project', instanceId: 'my-instance', databaseId: 'my-db', maxOpsPerCell: 100, maxSecondsPerCell: 60 };
  assert.match(
    issues(spec({ operation: 'scan', resultSet: shape }, spanner)).join(),
    /workload\.resultSet: scan runs on the fake and the emulator: the runner creates no tables in a Cloud Spanner database/,
  );
});

test('the same shape and seed give the same values and query; another seed other values', () => {
  const a = ResultSetSchema.parse({ rows: 50, columns: [{ type: 'ARRAY<NUMERIC>' }, { type: 'TIMESTAMP' }, { type: 'FLOAT64' }] });
  assert.deepEqual(generateRows(a), generateRows({ ...a }));
  assert.notDeepEqual(generateRows(a), generateRows({ ...a, seed: 2 }));
  assert.equal(resultSetSql(a), resultSetSql(ResultSetSchema.parse({ ...a, read: 'none', chunkBytes: 100 })));
  assert.notEqual(resultSetSql(a), resultSetSql({ ...a, seed: 2 }));
  assert.match(resultSetSql(a), /^SELECT c0, c1, c2 FROM ScanRows_[0-9a-f]{8} ORDER BY k LIMIT 50$/);
  // The table those rows live in on the emulator: the row's index as its key, every type declared.
  assert.equal(resultSetDdl(a), `CREATE TABLE ${resultSetTable(a)} (k INT64 NOT NULL, c0 ARRAY<NUMERIC>, c1 TIMESTAMP, c2 FLOAT64) PRIMARY KEY (k)`);
  const scalars = ['BOOL', 'INT64', 'FLOAT32', 'FLOAT64', 'NUMERIC', 'STRING(MAX)', 'BYTES(MAX)', 'DATE', 'TIMESTAMP', 'JSON'];
  assert.deepEqual(COLUMN_TYPES.map(columnDdlType), [...scalars, ...scalars.map((t) => `ARRAY<${t}>`)]);
  const d = driverResultSet(a);
  assert.deepEqual(
    d.columns.map((c) => c.checksum),
    columnChecksums(a.columns, generateRows(a)),
  );
  assert.deepEqual(
    d.columns.map((c) => [c.name, c.type, c.array]),
    [
      ['c0', 'NUMERIC', true],
      ['c1', 'TIMESTAMP', false],
      ['c2', 'FLOAT64', false],
    ],
  );
});

test('canonical forms: float bits, NaN whatever its bits, timestamps to the nanosecond', () => {
  assert.equal(canonicalText('FLOAT64', 1), '3ff0000000000000');
  assert.equal(canonicalText('FLOAT64', 'Infinity'), '7ff0000000000000');
  assert.equal(canonicalText('FLOAT64', 'NaN'), 'NaN');
  assert.equal(canonicalText('FLOAT32', 1), '3f800000');
  assert.equal(canonicalText('FLOAT32', '-Infinity'), 'ff800000');
  assert.equal(timestampCanonical('2024-05-06T07:08:09.000000001Z'), '1714979289.000000001');
  assert.equal(timestampCanonical('1970-01-01T00:00:01Z'), '1.000000000');
  assert.equal(canonicalText('BOOL', false), 'false');
});
