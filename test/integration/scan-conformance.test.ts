// test: yields
// The scan operation through every language's driver against the fake: a result of every Spanner type,
// NULLs and arrays included, streamed in small chunks with values split mid-way, decoded by the real
// client and folded into the checksums the fake's values give; a value changed in one chunk fails the
// cell, naming the column and its type.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeSpanner } from '@scb/fake-spanner';
import { prepareDriver, runDriver } from '@scb/languages';
import { COLUMN_TYPES, type Configuration, decodeHistogram, type Language, parseJobSpec, type ResultSet, ResultSetSchema } from '@scb/shared';
import { CACHE_DIR } from '../../apps/runner/src/paths';
import { defaultCellOn } from '../helpers/cells';
import { languagePlugins } from '@scb/languages';

/** The newest version of each client the registries serve here that decodes every type below (FLOAT32 and UUID included). */
const VERSIONS: Record<Language, string> = { node: '9.0.0', java: '6.123.0', go: '1.96.1', python: '3.71.0' };

const sized = (type: string) => /STRING|BYTES|JSON/.test(type);
/** Every scalar and array type, a tenth NULL, in 512-byte chunks: strings, bytes and lists are split across parts. */
const EVERY_TYPE = ResultSetSchema.parse({
  rows: 30,
  columns: COLUMN_TYPES.map((type) => ({ type, nullFraction: 0.1, ...(sized(type) ? { bytes: 48 } : {}) })),
  chunkBytes: 512,
  seed: 3,
});

/** The same without INT64 columns: what Node's `json` rows (numbers unwrapped) can read of values across the whole 64-bit range. */
const NO_INT64 = { ...EVERY_TYPE, columns: EVERY_TYPE.columns.filter((c) => !c.type.includes('INT64')) };

/**
 * The value options: DATEs across Spanner's whole range (years 0001-0999 included, which Node releases
 * before 6.1.0 and 8.8.0 decoded wrong) and JSON integers across the 64-bit range (which a float64 does
 * not hold), in 256-byte chunks.
 */
const WIDE_VALUES = ResultSetSchema.parse({
  rows: 40,
  columns: [
    { type: 'DATE', dateRange: { from: '0001-01-01', to: '9999-12-31' }, nullFraction: 0.1 },
    { type: 'ARRAY<DATE>', dateRange: { from: '0001-01-01', to: '0999-12-31' }, nullFraction: 0.1 },
    { type: 'JSON', bytes: 64, jsonIntegers: 'int64', nullFraction: 0.1 },
    { type: 'ARRAY<JSON>', bytes: 48, jsonIntegers: 'int64', nullFraction: 0.1 },
  ],
  chunkBytes: 256,
  seed: 5,
});

/**
 * How each client at its version above reads the value options: the JSON columns' integers beyond 2^53
 * come back changed where the client parses JSON numbers into a float64 (Node always; Go unless
 * goJsonUseNumber), and the cell fails naming the first such column.
 */
const WIDE_VALUES_FAIL: Record<Language, RegExp | null> = { node: /column c2 \(JSON\)/, java: null, go: /column c2 \(JSON\)/, python: null };

/**
 * The shape each language's whole-shape test reads: where the value options agree (Java, Python), every
 * type with the value options' columns after its own, so that one run carries both that test's checks
 * and the DATE and JSON test's (a driver process fewer each); elsewhere they would fail the cell.
 */
const EVERY_TYPE_AND_WIDE_VALUES = ResultSetSchema.parse({ ...EVERY_TYPE, columns: [...EVERY_TYPE.columns, ...WIDE_VALUES.columns] });
const wholeShape = (language: Language) => (WIDE_VALUES_FAIL[language] ? EVERY_TYPE : EVERY_TYPE_AND_WIDE_VALUES);

/**
 * Each language's decode options (configurations), with a result it reads: the checksums must agree in
 * every one, reading all columns and the first only (where a lazy mode decodes nothing else). `reads`:
 * both unless given. Node's client has no lazy mode (its rows arrive decoded whole), so what reading the
 * first column changes there is only the driver's slice of the columns it checks (scan.ts), the same
 * under every option: one option reads both ways, the others all columns, the first column's checksum
 * among them (three Node processes fewer).
 */
const DECODE_OPTIONS: Partial<Record<Language, { configuration: Partial<Configuration>; shape: ResultSet; reads?: readonly ('all' | 'first')[] }[]>> = {
  java: (['LAZY_PER_COL', 'LAZY_PER_ROW'] as const).map((decodeMode) => ({ configuration: { decodeMode }, shape: EVERY_TYPE })),
  node: [
    { configuration: { nodeRows: 'json-wrapNumbers' }, shape: EVERY_TYPE, reads: ['all'] },
    { configuration: { nodeRows: 'json' }, shape: NO_INT64, reads: ['all'] },
    { configuration: { nodeScan: 'runStream' }, shape: EVERY_TYPE, reads: ['all'] },
    { configuration: { nodeScan: 'runStream', nodeRows: 'json-wrapNumbers' }, shape: EVERY_TYPE },
  ],
  go: [{ configuration: { goJsonUseNumber: true }, shape: WIDE_VALUES }],
  python: [{ configuration: { pythonLazyDecode: true }, shape: EVERY_TYPE }],
};

async function scanRun(language: Language, shape: ResultSet, server: { corruptResultSetPart?: number } = {}, configuration: Partial<Configuration> = {}, measuredOps = 20) {
  const client = { language, version: VERSIONS[language]! };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  const fake = await startFakeSpanner({ latencyMs: 1, resultSets: [shape], ...server });
  try {
    const base = defaultCellOn(fake, client, { warmupOps: 2, measuredOps, operation: 'scan', resultSet: shape }, 2);
    const cell = { ...base, configuration: { ...base.configuration, ...configuration } };
    return { result: await runDriver(cell, launch).catch((e: Error) => e), stats: fake.stats() };
  } finally {
    await fake.stop();
  }
}

/** Each language's whole shape read in full: one run, which the DATE and JSON test below reads too. */
const readWhole = new Map<Language, ReturnType<typeof scanRun>>();
function wholeRead(language: Language): ReturnType<typeof scanRun> {
  if (!readWhole.has(language)) readWhole.set(language, scanRun(language, { ...wholeShape(language), read: 'all' }));
  return readWhole.get(language)!;
}

for (const language of languagePlugins().map((p) => p.language)) {
  test(`${language} driver: scan decodes every type from chunked answers, and each column's checksum agrees`, { timeout: 10 * 60_000 }, async () => {
    for (const read of ['all', 'none'] as const) {
      const { result, stats } = read === 'all' ? await wholeRead(language) : await scanRun(language, { ...wholeShape(language), read });
      assert.ok(!(result instanceof Error), `read ${read}: ${(result as Error).message}`);
      assert.deepEqual(result.errors, {}, JSON.stringify(result.errors));
      assert.equal(result.count, 20);
      assert.equal(result.operations.scan?.count, 20);
      assert.equal(stats.rpcsByMethod.ExecuteStreamingSql, 22, JSON.stringify(stats.rpcsByMethod));
      // The driver's memory high-water mark (a runtime and a client take tens of MiB) and its GC time.
      assert.ok(result.peakRssBytes! > 20 * 2 ** 20, `peak RSS ${result.peakRssBytes}`);
      assert.ok(result.gcMs !== undefined && result.gcMs >= 0 && result.gcMs < result.elapsedMs, `GC ${result.gcMs} ms of ${result.elapsedMs}`);
      // Every scan's time to its first row and to its last, from its start: the first is some time after
      // the start and never after the last, which is never after the scan ended (its latency). Since each
      // scan's are so ordered, so are the same percentiles of all of them.
      const times = result.operations.scan!.rowTimes;
      assert.ok(times, `read ${read}: no row times`);
      const [first, last, latency] = [times.firstRow, times.lastRow, result.operations.scan!.histogram].map(decodeHistogram);
      assert.equal(first!.totalCount, 20);
      assert.equal(last!.totalCount, 20);
      assert.ok(first!.minNonZeroValue > 0);
      for (const p of [0, 50, 99, 100]) {
        const [f, l, op] = [first!, last!, latency!].map((h) => h.getValueAtPercentile(p));
        assert.ok(f! <= l!, `read ${read}, p${p}: first row ${f} µs after the last ${l} µs`);
        assert.ok(l! <= op!, `read ${read}, p${p}: last row ${l} µs after the scan's end ${op} µs`);
      }
    }
  });

  test(`${language} driver: a value changed in one chunk fails the cell, naming the column and its type`, { timeout: 10 * 60_000 }, async () => {
    const shape = ResultSetSchema.parse({ rows: 12, columns: [{ type: 'INT64' }, { type: 'ARRAY<STRING>', bytes: 30, arrayLength: 3 }], chunkBytes: 128, read: 'all' });
    const { result } = await scanRun(language, shape, { corruptResultSetPart: 2 });
    assert.ok(result instanceof Error, 'the cell fails');
    assert.match(result.message, /column c1 \(ARRAY<STRING>\)/);
    // Reading only the first column, the application never sees the changed value: nothing to fail.
    const first = await scanRun(language, { ...shape, read: 'first' }, { corruptResultSetPart: 2 });
    assert.ok(!(first.result instanceof Error), `read first: ${(first.result as Error).message}`);
    // A UUID changed (a hex letter for another: still a UUID) fails it too, decoded into each language's own UUID type.
    const uuids = ResultSetSchema.parse({ ...shape, columns: [{ type: 'INT64' }, { type: 'ARRAY<UUID>', arrayLength: 3 }] });
    const changed = await scanRun(language, uuids, { corruptResultSetPart: 2 }, {}, 2);
    assert.ok(changed.result instanceof Error, 'a changed UUID fails the cell');
    assert.match(changed.result.message, /column c1 \(ARRAY<UUID>\)/);
  });
}

test('go driver: a version without spanner.NullFloat32 (1.33.0) refuses a FLOAT32 column it would decode, and decodes every other type', { timeout: 10 * 60_000 }, async () => {
  const client = { language: 'go' as const, version: '1.33.0' };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  // (Nor has it spanner.NullUUID: UUID is left out too; the test below refuses it by name.)
  const others = ResultSetSchema.parse({ ...EVERY_TYPE, columns: EVERY_TYPE.columns.filter((c) => !/FLOAT32|UUID/.test(c.type)) });
  const shapes = [EVERY_TYPE, others, { ...EVERY_TYPE, read: 'none' as const }];
  const fake = await startFakeSpanner({ latencyMs: 1, resultSets: shapes });
  try {
    const run = (resultSet: ResultSet) => runDriver(defaultCellOn(fake, client, { warmupOps: 1, measuredOps: 5, operation: 'scan', resultSet }, 1), launch).catch((e: Error) => e);
    const refused = await run(EVERY_TYPE);
    assert.ok(refused instanceof Error, 'the cell fails');
    assert.match(refused.message, /option workload\.resultSet FLOAT32 is not supported by go 1\.33\.0: it has no spanner\.NullFloat32/);
    for (const shape of shapes.slice(1)) {
      const result = await run(shape);
      assert.ok(!(result instanceof Error), `${shape.columns.length} columns, read ${shape.read}: ${(result as Error).message}`);
      assert.equal(result.count, 5);
    }
  } finally {
    await fake.stop();
  }
});

/**
 * UUID before the clients knew it: Java before getUuid (6.92.0; here 6.89.0) and Go before spanner.NullUUID
 * (v1.81.0; here 1.80.0)
 * refuse a UUID column by name (exit 4), before connecting; Node hands the wire's text over as it came
 * in every version, so 7.10.0 (whose protos have no TypeCode UUID) decodes it as a string and agrees.
 */
const BEFORE_UUID: Record<Language, { version: string; refused: RegExp | null }> = {
  node: { version: '7.10.0', refused: null },
  java: { version: '6.89.0', refused: /option workload\.resultSet UUID is not supported by java 6\.89\.0: the client reads UUID \(getUuid\) from 6\.92\.0 on/ },
  go: {
    version: '1.80.0',
    refused: /option workload\.resultSet UUID is not supported by go 1\.80\.0: it has no spanner\.NullUUID to decode column c0 into \(it came in cloud\.google\.com\/go\/spanner v1\.81\.0\)/,
  },
  python: {
    version: '3.61.0',
    refused:
      /option workload\.resultSet UUID is not supported by python 3\.61\.0: it does not decode UUID, which column c0 holds \(the client decodes UUID from 3\.62\.0 \(python-spanner PR #1310\) on\)/,
  },
};

for (const language of languagePlugins().map((p) => p.language)) {
  const { version, refused } = BEFORE_UUID[language];
  test(`${language} driver: a version from before UUID (${version}) ${refused ? 'refuses a UUID column by name' : 'decodes UUID and ARRAY<UUID> as text, and the checksums agree'}`, {
    timeout: 10 * 60_000,
  }, async () => {
    const client = { language, version };
    const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
    const shape = ResultSetSchema.parse({
      rows: 12,
      columns: [
        { type: 'UUID', nullFraction: 0.2 },
        { type: 'ARRAY<UUID>', arrayLength: 3, nullFraction: 0.2 },
      ],
      chunkBytes: 128,
      seed: 9,
    });
    const fake = await startFakeSpanner({ latencyMs: 1, resultSets: [shape] });
    try {
      const result = await runDriver(defaultCellOn(fake, client, { warmupOps: 1, measuredOps: 3, operation: 'scan', resultSet: shape }, 1), launch).catch((e: Error) => e);
      if (refused) {
        assert.ok(result instanceof Error, 'the cell fails');
        assert.match(result.message, /driver exited \(code 4\)/);
        assert.match(result.message, refused);
      } else {
        assert.ok(!(result instanceof Error), (result as Error).message);
        assert.deepEqual(result.errors, {});
        assert.equal(result.operations.scan?.count, 3);
      }
    } finally {
      await fake.stop();
    }
  });
}

for (const [language, options] of Object.entries(DECODE_OPTIONS)) {
  test(`${language} driver: every decode option decodes to the same checksums, reading all columns and the first`, { timeout: 10 * 60_000 }, async () => {
    for (const { configuration, shape, reads = ['all', 'first'] as const } of options!) {
      for (const read of reads) {
        const what = `${JSON.stringify(configuration)}, read ${read}`;
        const { result } = await scanRun(language, { ...shape, read }, {}, configuration, 10);
        assert.ok(!(result instanceof Error), `${what}: ${(result as Error).message}`);
        assert.deepEqual(result.errors, {}, `${what}: ${JSON.stringify(result.errors)}`);
        assert.equal(result.operations.scan?.count, 10, what);
      }
    }
  });
}

for (const language of languagePlugins().map((p) => p.language)) {
  test(`${language} driver: DATEs of years 0001-9999 agree; JSON integers beyond 2^53 ${WIDE_VALUES_FAIL[language] ? 'fail the cell naming the column' : 'agree'}`, {
    timeout: 10 * 60_000,
  }, async () => {
    const fails = WIDE_VALUES_FAIL[language];
    if (fails) {
      // The DATE columns need no cell of their own: every driver checks a scan's columns in order and
      // ends the cell at the first that differs (scan.ts, scan.go; a Go value that does not decode ends
      // it at once, its column named), so a failure naming c2 says c0 and c1, the DATEs, agreed.
      const { result } = await scanRun(language, WIDE_VALUES, {}, {}, 5);
      assert.ok(result instanceof Error, 'the cell fails');
      assert.match(result.message, /driver exited \(code 5\)/);
      assert.match(result.message, fails);
      assert.doesNotMatch(result.message, /column c[01] /, 'the DATE columns agree');
    } else {
      // The whole-shape test's run (above): its columns end with these.
      const { result } = await wholeRead(language);
      assert.ok(!(result instanceof Error), `DATE and JSON: ${(result as Error).message}`);
      assert.deepEqual(result.errors, {}, JSON.stringify(result.errors));
      assert.equal(result.operations.scan?.count, 20);
    }
  });
}

test('node driver: json rows (numbers unwrapped) cannot read INT64 values outside Number.isSafeInteger, which the spec refuses', { timeout: 10 * 60_000 }, async () => {
  const shape = ResultSetSchema.parse({ rows: 50, columns: [{ type: 'INT64' }], seed: 3 });
  // The client throws "Integer … is out of bounds" while decoding: every query fails (the driver counts it), none is checked.
  const { result } = await scanRun('node', shape, {}, { nodeRows: 'json' }, 3);
  assert.ok(!(result instanceof Error), (result as Error).message);
  assert.deepEqual(result.errors, { UNKNOWN: 3 });
  const spec = parseJobSpec({
    clients: [{ language: 'node', version: VERSIONS.node! }],
    configurations: [{ label: 'json', nodeRows: 'json' }],
    concurrency: [1],
    workload: { operation: 'scan', warmupOps: 1, measuredOps: 1, resultSet: shape },
  });
  assert.ok(!spec.ok && spec.issues[0]!.path === 'configurations.0.nodeRows', JSON.stringify(spec));
});
