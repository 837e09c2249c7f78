// The result-set presets (issue 36): the decoding work the clients' maintainers measure by hand, as
// jobs. Their figures are in docs/findings/result-sets.md (bench/result-sets.ts measures them).
import { COLUMN_TYPES, type ResultColumn, scalarOf } from '../result-set/shape';
import type { Preset } from './preset';

/**
 * One column per type and ARRAY<type>, 16-byte text and bytes, 4-element arrays (python-spanner #1244's
 * shape, arrays added). UUID left out: the preset's figures were measured before it came, and the
 * preset runs on the emulator too, where UUID columns are untried.
 */
export const EVERY_TYPE_COLUMNS: ResultColumn[] = COLUMN_TYPES.filter((type) => scalarOf(type) !== 'UUID').map((type) => ({ type }));

/** Ten columns of the common types: the rows of an application's table. */
export const NODE_SINGLE_CHUNK_COLUMNS: ResultColumn[] = [
  { type: 'INT64' },
  { type: 'STRING', bytes: 32 },
  { type: 'FLOAT64' },
  { type: 'BOOL' },
  { type: 'TIMESTAMP' },
  { type: 'DATE' },
  { type: 'NUMERIC' },
  { type: 'BYTES', bytes: 16 },
  { type: 'JSON', bytes: 48 },
  { type: 'ARRAY<INT64>' },
];

/**
 * 24 columns of mixed types, INT64 first: every scalar type twice and four arrays (java-spanner PR
 * #2847's case: lazy decoding pays when an application reads a few columns of many).
 */
export const LAZY_DECODING_COLUMNS: ResultColumn[] = [
  ...(['INT64', 'BOOL', 'FLOAT32', 'FLOAT64', 'NUMERIC', 'STRING', 'BYTES', 'DATE', 'TIMESTAMP', 'JSON'] as const).flatMap((type) => [{ type }, { type }]),
  { type: 'ARRAY<INT64>' },
  { type: 'ARRAY<STRING>' },
  { type: 'ARRAY<FLOAT64>' },
  { type: 'ARRAY<TIMESTAMP>' },
];

const newest = [
  { language: 'node', version: '9.0.0' },
  { language: 'java', version: '6.123.0' },
  { language: 'go', version: '1.96.1' },
];

const ON_THE_FAKE: Preset[] = [
  {
    id: 'result-set-every-type',
    title: 'Result sets: every type, 100 rows (Node, Java, Go)',
    description:
      "A single-use query returning 100 rows of 20 columns, one per Spanner type and one per ARRAY<type> (python-spanner PR #1244 measured the same kind of result: 35-40 ms to decode before it, 15-20 ms after). Every value is decoded into the language's own types and checked against the fake's checksum; one agent, queries 1 ms, so the client's decoding is what is measured: compare CPU ms per 1,000 rows. Measured here (docs/findings/result-sets.md, 3 repeats): node 9.0.0 12,386 rows/s at 85.9 CPU ms per 1,000 rows, java 6.123.0 17,026 at 55.4, go 1.96.1 17,165 at 54.4.",
    spec: {
      name: 'Result sets: every type, 100 rows',
      clients: newest,
      configurations: [{ label: 'client default' }],
      concurrency: [1],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'scan', warmupOps: 200, durationSeconds: 10, resultSet: { rows: 100, columns: EVERY_TYPE_COLUMNS } },
      repeats: 2,
    },
  },
  {
    id: 'result-set-node-single-chunk',
    title: 'Result sets: Node single-chunk path (8.12.0 vs 8.13.0 vs 9.0.0)',
    description:
      'google-cloud-node PR #9279 (merged 2026-09-10): a query whose result fits in one PartialResultSet skips the Transform-stream pipeline. 8.12.0 (published the day after the merge) does not carry it; 8.13.0 is the first release that does (its partial-result-stream.js has the single-chunk path), and 9.0.0. 100 rows of 10 common columns in one chunk, one agent, queries 1 ms; edit rows (1, 10, 10000: many chunks) to see where the path applies. Measured here (5 repeats): 100 rows in one part cost 8.12.0 33.7 CPU ms per 1,000 rows, 8.13.0 30.4 and 9.0.0 29.5; 10,000 rows in 3 parts the same within 3%.',
    spec: {
      name: 'Result sets: Node single-chunk path',
      clients: ['8.12.0', '8.13.0', '9.0.0'].map((version) => ({ language: 'node', version })),
      configurations: [{ label: 'client default' }],
      concurrency: [1],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'scan', warmupOps: 200, durationSeconds: 10, resultSet: { rows: 100, columns: NODE_SINGLE_CHUNK_COLUMNS } },
      repeats: 2,
    },
  },
  {
    id: 'result-set-java-lazy-decoding',
    title: 'Result sets: Java lazy decoding (DIRECT vs LAZY_PER_COL, 6.72.0 vs 6.123.0)',
    description:
      'java-spanner PR #2847 (google-cloud-spanner 6.59.0) added DecodeMode: DIRECT decodes every value as its row arrives, LAZY_PER_ROW a row when it is first read, LAZY_PER_COL each value when the application reads it. It should pay when an application reads few columns of many: here 1,000 rows of 24 columns of mixed types (every scalar type twice, four arrays), the application reading the first column only; switch workload.resultSet.read to all (all 24 read) to see what laziness costs when every value is read. Compare CPU ms per 1,000 rows. Both configurations on 6.123.0 and on 6.72.0, the last release whose default was LAZY_PER_COL (DIRECT from 6.73.0); 6.58.0, the release before DecodeMode, is refused by name for decodeMode, so it is not in the job. One agent, queries 1 ms. Measured here, reading 1 of 24: DIRECT 11.4 and LAZY_PER_COL 8.2 CPU ms per 1,000 rows on 6.72.0, 11.8 and 8.9 on 6.123.0; reading all 24, LAZY_PER_COL costs 4-7% more.',
    spec: {
      name: 'Result sets: Java lazy decoding',
      clients: ['6.72.0', '6.123.0'].map((version) => ({ language: 'java', version })),
      configurations: [
        { label: 'DIRECT', decodeMode: 'DIRECT' },
        { label: 'LAZY_PER_COL', decodeMode: 'LAZY_PER_COL' },
      ],
      concurrency: [1],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'scan', warmupOps: 100, durationSeconds: 10, resultSet: { rows: 1000, columns: LAZY_DECODING_COLUMNS, read: 'first' } },
      repeats: 2,
    },
  },
  {
    id: 'result-set-whole-table',
    title: 'Result sets: whole-table fetch, 100,000 rows × 10 columns',
    description:
      'google-cloud-cpp PR #15441 (2025) made queries that fetch many rows about 20% cheaper in CPU with arenas, on 100,000-row queries where a whole-table fetch was CPU-bound. The same fetch here (23.6 MB in 22 parts of about 1 MiB) through Node, Java and Go: rows per second and CPU ms per 1,000 rows. Measured here: node 9.0.0 78,657 rows/s (14.6 CPU ms per 1,000 rows), java 6.123.0 196,046 (5.4), go 1.96.1 127,500 (9.2).',
    spec: {
      name: 'Result sets: whole-table fetch',
      clients: newest,
      configurations: [{ label: 'client default' }],
      concurrency: [1],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'scan', warmupOps: 2, durationSeconds: 20, resultSet: { rows: 100_000, columns: NODE_SINGLE_CHUNK_COLUMNS.slice(0, 9).concat({ type: 'INT64' }) } },
    },
  },
  {
    id: 'result-set-chunk-sizes',
    title: 'Result sets: 10 MB in 64 KB chunks',
    description:
      "The same 10 MB result (10,000 rows of 1 KB strings) streamed in 64 KB PartialResultSets, every string split across chunks now and then (chunked_value). Spanner itself sends chunks of up to about 1 MiB (the Java client's own rule of thumb); set chunkBytes to 16384 or 1048576 to compare. Measured here (one repeat): java 6.123.0 165,504 rows/s in 16 KB parts, 190,247 in 64 KB, 213,804 in 1 MiB; node and go within their spread.",
    spec: {
      name: 'Result sets: 10 MB in 64 KB chunks',
      clients: newest,
      configurations: [{ label: 'client default' }],
      concurrency: [1],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'scan', warmupOps: 5, durationSeconds: 10, resultSet: { rows: 10_000, columns: [{ type: 'STRING', bytes: 1000 }], chunkBytes: 65_536 } },
    },
  },
  {
    id: 'result-set-python-decoding',
    title: 'Result sets: Python decoding (3.50.1 vs 3.51.0, lazy_decode on 3.71.0)',
    description:
      'python-spanner PR #1244 (3.51.0, "Optimize ResultSet decoding") chose a decoder per column once per result instead of a type switch per value: 100 rows of 20 columns measured 35-40 ms to decode before it and 15-20 ms after. The same every-type result as result-set-every-type, the application reading the first column only, on 3.50.1, 3.51.0 and 3.71.0, and 3.71.0 with pythonLazyDecode (execute_sql(lazy_decode=True), 3.51.0 on: the client hands over protobuf values, the application decodes the column it reads). One agent, queries 1 ms: compare CPU ms per 1,000 rows. The decoding change reproduces here (the reproduction python-resultset-decoding: 3.50.1\'s p50 2.7 and 3.8 times 3.51.0\'s on a loaded machine); measured here once with 2 s per cell (2026-11-26, the machine loaded by other work): 274.0 CPU ms per 1,000 rows on 3.50.1, 122.6 on 3.51.0, 86.0 on 3.71.0 and 25.1 with lazy_decode (p50 80.4, 17.5, 10.1 and 3.6 ms).',
    spec: {
      name: 'Result sets: Python decoding',
      clients: ['3.50.1', '3.51.0', '3.71.0', '3.71.0'].map((version) => ({ language: 'python', version })),
      configurations: [{ label: 'client default' }, { label: 'client default' }, { label: 'client default' }, { label: 'lazy_decode', pythonLazyDecode: true }],
      pairing: 'zip',
      concurrency: [1],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'scan', warmupOps: 100, durationSeconds: 10, resultSet: { rows: 100, columns: EVERY_TYPE_COLUMNS, read: 'first' } },
    },
  },
];

/** A preset's spec on a fresh emulator per cell, which the runner provisions with the result's table and values. */
function onEmulator(id: string, title: string, note: string): Preset {
  const p = ON_THE_FAKE.find((x) => x.id === id)!;
  return {
    id: `${id}-emulator`,
    title: `${title} on the emulator`,
    description: `${p.description} On the official emulator: ${note}`,
    spec: { ...p.spec, name: `${p.spec.name} (emulator)`, target: { kind: 'emulator' } },
  };
}

/** Every result-set preset: on the fake, then the two that also run on the emulator. */
export const RESULT_SET_PRESETS: Preset[] = [
  ...ON_THE_FAKE,
  onEmulator(
    'result-set-every-type',
    'Result sets: every type, 100 rows',
    'the runner creates the table of the 20 types and fills it with the same values before each cell; the emulator chunks the result itself.',
  ),
  onEmulator(
    'result-set-whole-table',
    'Result sets: whole-table fetch',
    'the runner fills 100,000 rows × 10 columns before each cell (about 4 s here); one scan takes the emulator itself 2-3 s, so a cell gets a handful of scans and measures the emulator as much as the client.',
  ),
];
