// The scan workload's spec: what it refuses and why, and the values and checksums it stands for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COLUMN_TYPES,
  canonicalText,
  columnChecksums,
  columnDdlType,
  describeConfiguration,
  describeResultSet,
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
  const scalars = ['BOOL', 'INT64', 'FLOAT32', 'FLOAT64', 'NUMERIC', 'STRING(MAX)', 'BYTES(MAX)', 'DATE', 'TIMESTAMP', 'JSON', 'UUID'];
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

test('decode options: Java decodeMode from 6.59.0, Node nodeRows with scan, json refused for INT64 values; each refused by name elsewhere', () => {
  const shape = { rows: 10, columns: [{ type: 'STRING', bytes: 8 }, { type: 'FLOAT64' }] };
  const withInt = { rows: 10, columns: [{ type: 'STRING' }, { type: 'ARRAY<INT64>', nullFraction: 0.5 }] };
  const on = (language: string, version: string, configuration: object, workload: object = { operation: 'scan', resultSet: shape }) =>
    issues({ ...spec(workload), clients: [{ language, version }], configurations: [{ label: 'x', ...configuration }] });

  for (const mode of ['DIRECT', 'LAZY_PER_ROW', 'LAZY_PER_COL']) {
    assert.deepEqual(on('java', '6.59.0', { decodeMode: mode }), []);
    assert.deepEqual(on('java', '6.123.0', { decodeMode: mode }, { operation: 'select1' }), [], 'client-wide: any workload');
  }
  assert.deepEqual(on('java', '6.58.0', { decodeMode: 'LAZY_PER_COL' }), [
    'configurations.0.decodeMode: is not supported by java 6.58.0: DecodeMode came in google-cloud-spanner 6.59.0 (java-spanner PR #2847); leave decodeMode unset for this version or run 6.59.0 or later',
  ]);
  assert.deepEqual(on('java', '6.58.0', {}), [], 'the version itself runs scan');
  assert.match(on('java', '6.123.0', { decodeMode: 'LAZY' }).join(), /^configurations\.0\.decodeMode: /);
  assert.deepEqual(on('node', '9.0.0', { decodeMode: 'DIRECT' }), ['configurations.0.decodeMode: is a java client option (DecodeMode, google-cloud-spanner 6.59.0 on); the node client has none']);
  assert.deepEqual(on('go', '1.96.1', { decodeMode: 'DIRECT' }), ['configurations.0.decodeMode: is a java client option (DecodeMode, google-cloud-spanner 6.59.0 on); the go client has none']);

  for (const rows of ['rows', 'json', 'json-wrapNumbers']) assert.deepEqual(on('node', '9.0.0', { nodeRows: rows }), []);
  assert.deepEqual(on('node', '9.0.0', { nodeRows: 'json-wrapNumbers' }, { operation: 'scan', resultSet: withInt }), []);
  assert.deepEqual(on('node', '9.0.0', { nodeRows: 'json' }, { operation: 'scan', resultSet: withInt }), [
    "configurations.0.nodeRows: json reads INT64 values as JS numbers and @google-cloud/spanner throws for any outside Number.isSafeInteger (±2^53 − 1), which the result's column c1 (ARRAY<INT64>) holds (its values span the whole 64-bit range): use json-wrapNumbers, or a result without INT64 columns",
  ]);
  assert.deepEqual(on('node', '9.0.0', { nodeRows: 'json' }, { operation: 'scan', resultSet: { rows: 10, columns: [{ type: 'INT64', nullFraction: 1 }] } }), [], 'no value to throw on');
  assert.deepEqual(on('node', '9.0.0', { nodeRows: 'json' }, { operation: 'select1' }), ["configurations.0.nodeRows: shapes the rows of the scan operation's query, which the workload does not run"]);
  assert.deepEqual(
    on(
      'node',
      '9.0.0',
      { nodeRows: 'json' },
      {
        mix: [
          { operation: 'select1', weight: 1 },
          { operation: 'scan', weight: 1 },
        ],
        resultSet: shape,
      },
    ),
    [],
  );
  assert.deepEqual(on('java', '6.123.0', { nodeRows: 'json' }), ['configurations.0.nodeRows: is a node client option (its json and wrapNumbers query options); the java client has none']);
  assert.deepEqual(on('go', '1.96.1', { nodeRows: 'rows' }), ['configurations.0.nodeRows: is a node client option (its json and wrapNumbers query options); the go client has none']);
  // The configuration in words, as pages and tables show it.
  assert.equal(describeConfiguration({ label: 'lazy', decodeMode: 'LAZY_PER_COL' }), 'lazy (decodeMode=LAZY_PER_COL)');
});

test('dateRange: DATE values drawn from the range, four-digit years below 1000 too; refused by name on other types and for a bad range', () => {
  const early = ResultSetSchema.parse({
    rows: 400,
    columns: [
      { type: 'DATE', dateRange: { from: '0100-01-01', to: '0999-12-31' } },
      { type: 'ARRAY<DATE>', dateRange: { from: '0001-01-01', to: '0099-12-31' } },
    ],
  });
  const rows = generateRows(early);
  const dates = rows.flatMap((r) => [r[0] as string, ...(r[1] as string[])]);
  assert.ok(
    dates.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)),
    'every year written with four digits',
  );
  const firsts = rows.map((r) => r[0] as string);
  assert.ok(firsts.every((d) => d >= '0100-01-01' && d <= '0999-12-31'));
  assert.ok(firsts.some((d) => d < '0200') && firsts.some((d) => d > '0900'), 'the whole range is drawn from');
  assert.ok(
    (rows.flatMap((r) => r[1]) as string[]).every((d) => d >= '0001-01-01' && d <= '0099-12-31'),
    'years 1-99 are not moved to the 1900s',
  );
  // The canonical text is the wire's: a client must give back "0500-03-01", not "500-03-01".
  assert.equal(canonicalText('DATE', '0500-03-01'), '0500-03-01');
  const one = ResultSetSchema.parse({ rows: 20, columns: [{ type: 'DATE', dateRange: { from: '2024-02-29', to: '2024-02-29' } }] });
  assert.deepEqual(new Set(generateRows(one).map((r) => r[0])), new Set(['2024-02-29']));

  // The default range spelled out is the same values and the same table as none given.
  const plain = ResultSetSchema.parse({ rows: 30, columns: [{ type: 'DATE' }] });
  const spelled = ResultSetSchema.parse({ rows: 30, columns: [{ type: 'DATE', dateRange: { from: '1900-01-01', to: '2100-12-31' } }] });
  assert.deepEqual(generateRows(spelled), generateRows(plain));
  assert.equal(resultSetTable(spelled), resultSetTable(plain));
  assert.notEqual(resultSetTable(early), resultSetTable({ ...early, columns: [{ type: 'DATE' }, { type: 'ARRAY<DATE>' }] }));
  assert.equal(describeResultSet(early), '400 rows × 2 columns (DATE 0100-01-01 to 0999-12-31, ARRAY<DATE> ×4 0001-01-01 to 0099-12-31), read all');

  const scan = (columns: object[]) => issues(spec({ operation: 'scan', resultSet: { rows: 10, columns } }));
  assert.deepEqual(scan([{ type: 'TIMESTAMP', dateRange: { from: '0100-01-01', to: '0999-12-31' } }]), ['workload.resultSet.columns.0.dateRange: is for DATE and ARRAY<DATE> columns, not TIMESTAMP']);
  assert.deepEqual(scan([{ type: 'DATE', dateRange: { from: '0999-12-31', to: '0100-01-01' } }]), ['workload.resultSet.columns.0.dateRange.to: must not be before from (0999-12-31)']);
  assert.deepEqual(scan([{ type: 'DATE', dateRange: { from: '0000-12-31', to: '2023-02-29' } }]), [
    'workload.resultSet.columns.0.dateRange.from: must be a real date from 0001-01-01 to 9999-12-31',
    'workload.resultSet.columns.0.dateRange.to: must be a real date from 0001-01-01 to 9999-12-31',
  ]);
  assert.deepEqual(scan([{ type: 'DATE', dateRange: { from: '1.1.2000', to: '2000-01-01' } }]), ['workload.resultSet.columns.0.dateRange.from: must be a date as YYYY-MM-DD']);
  assert.deepEqual(
    scan([{ type: 'DATE', dateRange: { from: '2000-01-01' } }]).map((i) => i.split(':')[0]),
    ['workload.resultSet.columns.0.dateRange.to'],
  );
});

test('jsonIntegers int64: JSON values whose integers span the 64-bit range, beyond what a float64 holds; refused by name on other types', () => {
  const big = ResultSetSchema.parse({
    rows: 50,
    columns: [
      { type: 'JSON', bytes: 120, jsonIntegers: 'int64' },
      { type: 'ARRAY<JSON>', bytes: 60, jsonIntegers: 'int64' },
    ],
  });
  const values = generateRows(big).flatMap((r) => [r[0] as string, ...(r[1] as string[])]);
  const integers = values.flatMap((v) => [...v.matchAll(/:(-?\d+)[,}]/g)].map((m) => BigInt(m[1]!)));
  assert.ok(integers.length > 100);
  assert.ok(integers.every((n) => n >= -(2n ** 63n) && n < 2n ** 63n));
  const unsafe = integers.filter((n) => n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER));
  assert.ok(unsafe.length > integers.length * 0.9, `${unsafe.length} of ${integers.length} beyond 2^53`);
  // Each is valid JSON, keys sorted and compact: its canonical text is the wire's, which a float64 cannot give back.
  for (const v of values) assert.equal(typeof JSON.parse(v), 'object');
  assert.equal(canonicalText('JSON', values[0]!), values[0]);
  assert.notEqual(JSON.stringify(JSON.parse(values[0]!)), values[0], 'a reader that parses into float64 changes the text');

  const safe = ResultSetSchema.parse({ rows: 50, columns: [{ type: 'JSON', bytes: 120, jsonIntegers: 'safe' }] });
  const plain = ResultSetSchema.parse({ rows: 50, columns: [{ type: 'JSON', bytes: 120 }] });
  assert.deepEqual(generateRows(safe), generateRows(plain), '`safe` is the default');
  assert.equal(resultSetTable(safe), resultSetTable(plain));
  for (const v of generateRows(plain).map((r) => r[0] as string)) assert.equal(JSON.stringify(JSON.parse(v)), v, 'safe integers survive a float64');
  assert.match(describeResultSet(big), /JSON 120 B int64 integers/);

  assert.deepEqual(issues(spec({ operation: 'scan', resultSet: { rows: 10, columns: [{ type: 'STRING', jsonIntegers: 'int64' }] } })), [
    'workload.resultSet.columns.0.jsonIntegers: is for JSON and ARRAY<JSON> columns, not STRING',
  ]);
  assert.match(issues(spec({ operation: 'scan', resultSet: { rows: 10, columns: [{ type: 'JSON', jsonIntegers: 'huge' }] } })).join(), /^workload\.resultSet\.columns\.0\.jsonIntegers: /);
});

test('nodeScan (Node, with scan) and goJsonUseNumber (Go 1.54.0 on, with scan): each refused by name elsewhere', () => {
  const shape = { rows: 10, columns: [{ type: 'JSON', jsonIntegers: 'int64' }] };
  const on = (language: string, version: string, configuration: object, workload: object = { operation: 'scan', resultSet: shape }) =>
    issues({ ...spec(workload), clients: [{ language, version }], configurations: [{ label: 'x', ...configuration }] });
  for (const nodeScan of ['run', 'runStream']) assert.deepEqual(on('node', '8.5.0', { nodeScan }), []);
  assert.deepEqual(on('node', '9.0.0', { nodeScan: 'runStream' }, { operation: 'select1' }), [
    'configurations.0.nodeScan: says how the scan operation takes its rows, which the workload does not run',
  ]);
  assert.match(on('node', '9.0.0', { nodeScan: 'each' }).join(), /^configurations\.0\.nodeScan: /);
  assert.deepEqual(on('java', '6.123.0', { nodeScan: 'runStream' }), ['configurations.0.nodeScan: is a node client option (database.run or database.runStream); the java client has neither']);
  assert.deepEqual(on('go', '1.96.1', { nodeScan: 'run' }), ['configurations.0.nodeScan: is a node client option (database.run or database.runStream); the go client has neither']);

  assert.deepEqual(on('go', '1.54.0', { goJsonUseNumber: true }), []);
  assert.deepEqual(on('go', '1.53.1', { goJsonUseNumber: true }), [
    'configurations.0.goJsonUseNumber: is not supported by go 1.53.1: UseNumberWithJSONDecoderEncoder came in cloud.google.com/go/spanner 1.54.0 (google-cloud-go PR #9054); leave goJsonUseNumber unset for this version or run 1.54.0 or later',
  ]);
  assert.deepEqual(on('go', '1.96.1', { goJsonUseNumber: true }, { operation: 'select1' }), [
    'configurations.0.goJsonUseNumber: changes how JSON values decode, which only the scan operation reads, and the workload does not run it',
  ]);
  assert.deepEqual(on('node', '9.0.0', { goJsonUseNumber: true }), ['configurations.0.goJsonUseNumber: is a go client option (UseNumberWithJSONDecoderEncoder, 1.54.0 on); the node client has none']);
  assert.deepEqual(on('java', '6.123.0', { goJsonUseNumber: false }), [
    'configurations.0.goJsonUseNumber: is a go client option (UseNumberWithJSONDecoderEncoder, 1.54.0 on); the java client has none',
  ]);
  assert.equal(describeConfiguration({ label: 'UseNumber', goJsonUseNumber: true }), 'UseNumber (goJsonUseNumber=true)');
});

test('UUID and ARRAY<UUID>: version-4 UUIDs in lower-case 8-4-4-4-12 form, the same per seed, folded as that text', () => {
  const shape = ResultSetSchema.parse({
    rows: 200,
    columns: [
      { type: 'UUID', nullFraction: 0.1 },
      { type: 'ARRAY<UUID>', arrayLength: 3 },
    ],
    seed: 4,
  });
  const rows = generateRows(shape);
  assert.deepEqual(rows, generateRows({ ...shape }));
  assert.notDeepEqual(rows, generateRows({ ...shape, seed: 5 }));
  const values = rows.flatMap((r) => [r[0], ...(r[1] as string[])]).filter((v) => v !== null) as string[];
  assert.ok(rows.some((r) => r[0] === null) && values.length > 700, `${values.length} values`);
  for (const v of values) assert.match(v, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // Random enough: no two alike, every hex digit in every free position over the values.
  assert.equal(new Set(values).size, values.length);
  assert.equal(new Set(values.map((v) => v[0])).size, 16);
  // The canonical form is the lower-case text, whatever case a client prints it in.
  assert.equal(canonicalText('UUID', values[0]!.toUpperCase()), values[0]);
  const sums = columnChecksums(shape.columns, rows);
  const upper = rows.map((r) => [typeof r[0] === 'string' ? r[0].toUpperCase() : r[0], r[1]]);
  assert.deepEqual(columnChecksums(shape.columns, upper), sums);
  const changed = rows.map((r, i) => (i === 7 ? [r[0], (r[1] as string[]).map((u, k) => (k === 1 ? `${u.slice(0, -1)}${u.endsWith('0') ? '1' : '0'}` : u))] : r));
  const after = columnChecksums(shape.columns, changed);
  assert.equal(after[0], sums[0]);
  assert.notEqual(after[1], sums[1]);
  // A UUID has no size: bytes is refused by name; the emulator's table declares the type.
  assert.match(issues(spec({ operation: 'scan', resultSet: { rows: 10, columns: [{ type: 'UUID', bytes: 8 }] } })).join(), /columns\.0\.bytes: sizes STRING, BYTES and JSON values, not UUID/);
  assert.match(resultSetDdl(shape), /c0 UUID, c1 ARRAY<UUID>\)/);
  assert.deepEqual(
    driverResultSet(shape).columns.map((c) => [c.type, c.array, c.checksum]),
    [
      ['UUID', false, sums[0]],
      ['UUID', true, sums[1]],
    ],
  );
});
