// Result-set decoding bugs fixed in a release: the scan operation's checksum (or its row count) fails
// the affected version's cell, and the fixed version's agrees (result-set/values.ts).
import type { Reproduction } from '../reproduction';

const target = { kind: 'fake' as const, latencyMs: 1 };
/** A few scans: one decoded wrong ends the driver (exit 5), a right one repeats until the end. */
const workload = { operation: 'scan' as const, warmupOps: 5, durationSeconds: 2 };

export const RESULT_SET_BUGS: Reproduction[] = [
  {
    id: 'node-date-year-padding',
    title: 'Node before 6.1.0: DATEs of years 0100-0999 come back without their leading zero ("954-01-01")',
    language: 'node',
    links: [
      { label: 'nodejs-spanner #1653', url: 'https://github.com/googleapis/nodejs-spanner/issues/1653' },
      { label: 'nodejs-spanner PR #1654', url: 'https://github.com/googleapis/nodejs-spanner/pull/1654' },
    ],
    affected: 'before 6.1.0',
    fixed: '6.1.0 ("Improve spanner.date handling of years before 1000AD"); npm here serves neither 6.0.x nor 6.1.0, so the entry runs 5.18.0 and 6.1.3',
    fixedVersion: '6.1.3',
    versionsNote:
      "SpannerDate.toJSON() wrote the year as a plain number; 6.1.0 pads it to four digits. Years 0001-0099 stay wrong until 8.8.0 (node-date-before-year-100). The issue's own example is a value written; a value read is the same SpannerDate.",
    trigger: 'A DATE column of years 0100 to 0999 (workload.resultSet dateRange), each value read as the client gives it (SpannerDate.toJSON()).',
    status: 'reproduced',
    seen: '2026-11-26, c5caea2: 100 DATEs of years 0100-0999, scans at 1 ms: 5.18.0 failed on its first scan ("column c0 (DATE) decoded to values whose checksum is c1755072, the result\'s is e4fb3fe6"; by hand it reads 0826-04-01 as "826-04-01"); 6.1.3 284 scans/s for 2 s, no error.',
    spec: {
      name: 'Reproduction: Node DATEs before 1000 lose their leading zero',
      clients: [
        { language: 'node', version: '5.18.0' },
        { language: 'node', version: '6.1.3' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [1],
      target,
      workload: { ...workload, resultSet: { rows: 100, columns: [{ type: 'DATE', dateRange: { from: '0100-01-01', to: '0999-12-31' } }] } },
      expectations: [
        { kind: 'bound', metric: 'mismatchedCells', cells: { version: '5.18.0' }, atLeast: 1, says: '5.18.0 writes the year 954 as "954"' },
        { kind: 'bound', metric: 'failedCells', cells: { version: '6.1.3' }, atMost: 0, says: '6.1.3 writes "0954"' },
      ],
    },
  },
  {
    id: 'node-date-before-year-100',
    title: 'Node before 8.8.0: DATEs of years 0001-0099 come back in the 1900s and 2000s',
    language: 'node',
    links: [{ label: 'google-cloud-node PR #8452', url: 'https://github.com/googleapis/google-cloud-node/pull/8452' }],
    affected: 'every release before 8.8.0',
    fixed: '8.8.0 (the SpannerDate constructor keeps a year below 100: `customYear`, which came with "perf(spanner): optimize query result decoding")',
    fixedVersion: '8.8.0',
    versionsNote:
      "Found in the packages' own code, not in a bug report: SpannerDate turns '0050-03-01' into '03-01-0050' and hands it to Date, which reads a two-digit year (1950); 8.7.1's constructor does so, 8.8.0's sets the year back with setFullYear.",
    trigger: 'A DATE column of years 0001 to 0099 (workload.resultSet dateRange).',
    status: 'reproduced',
    seen: '2026-11-26, c5caea2: 100 DATEs of years 0001-0099: 8.7.1 failed on its first scan ("checksum is 6e96bd36, the result\'s is ee6d168a"; by hand it reads 0020-01-25 as 2020-01-25 and 0062-08-10 as 1962-08-10); 8.8.0 270 scans/s, no error.',
    spec: {
      name: 'Reproduction: Node DATEs before year 100 move to the 1900s',
      clients: [
        { language: 'node', version: '8.7.1' },
        { language: 'node', version: '8.8.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [1],
      target,
      workload: { ...workload, resultSet: { rows: 100, columns: [{ type: 'DATE', dateRange: { from: '0001-01-01', to: '0099-12-31' } }] } },
      expectations: [
        { kind: 'bound', metric: 'mismatchedCells', cells: { version: '8.7.1' }, atLeast: 1, says: '8.7.1 reads the year 50 as 1950' },
        { kind: 'bound', metric: 'failedCells', cells: { version: '8.8.0' }, atMost: 0, says: '8.8.0 keeps the year 50' },
      ],
    },
  },
  {
    id: 'node-runstream-rows-lost',
    title: 'Node 8.1.0-8.5.x: a stream read with for await loses the rows still buffered when the last part arrives',
    language: 'node',
    links: [
      { label: 'nodejs-spanner #2502', url: 'https://github.com/googleapis/nodejs-spanner/issues/2502' },
      { label: 'nodejs-spanner PR #2516', url: 'https://github.com/googleapis/nodejs-spanner/pull/2516' },
      { label: 'nodejs-spanner PR #2313 (the cause)', url: 'https://github.com/googleapis/nodejs-spanner/pull/2313' },
    ],
    affected: '8.1.0 to 8.5.0 (npm here serves 8.2.1 to 8.5.0 of them)',
    fixed: '8.6.0 ("Ensure all data is consumed before emitting end event in PartialResultStream")',
    fixedVersion: '8.6.0',
    versionsNote:
      "8.1.0 stopped waiting for the trailers: PartialResultStream emits 'end' itself on the part that says `last` (PR #2313). A reader that pauses (an async iterator) has not yet taken the rows buffered before it; 'end' drops them. 8.6.0 pushes the end of the stream instead. database.run() reads every row as it comes and loses none.",
    trigger:
      'database.runStream() read with for await (configuration nodeScan: runStream), the part that says `last` carrying more rows than the reader takes before the end: here 100 rows in one part.',
    status: 'reproduced',
    seen: '2026-11-26, c5caea2: 100 rows in one part: 8.5.0 with for await over runStream() failed, "scan: 32 rows decoded, the result has 100"; 8.5.0 with run() 245 scans/s and 8.6.0 250 and 253, no error. By hand on 8.4.0 and 8.5.0 the reader got 32 rows of any one-part result (40, 100 or 2,000 rows), 1,958 of 2,000 rows in 26 parts (the last of 74 rows), all of 2,000 rows whose last part held 5.',
    spec: {
      name: 'Reproduction: Node runStream loses the last rows of a paused stream',
      clients: [
        { language: 'node', version: '8.5.0' },
        { language: 'node', version: '8.6.0' },
      ],
      configurations: [
        { label: 'runStream, for await', nodeScan: 'runStream' },
        { label: 'run', nodeScan: 'run' },
      ],
      concurrency: [1],
      target,
      workload: { ...workload, resultSet: { rows: 100, columns: [{ type: 'INT64' }, { type: 'STRING', bytes: 16 }] } },
      expectations: [
        { kind: 'bound', metric: 'mismatchedCells', cells: { version: '8.5.0', configuration: 'runStream, for await' }, atLeast: 1, says: "8.5.0's stream ends before the reader has taken every row" },
        { kind: 'bound', metric: 'failedCells', cells: { version: '8.5.0', configuration: 'run' }, atMost: 0, says: 'run() takes every row as it comes: none lost' },
        { kind: 'bound', metric: 'failedCells', cells: { version: '8.6.0' }, atMost: 0, says: '8.6.0 hands over every row' },
      ],
    },
  },
  {
    id: 'go-json-number-float64',
    title: 'Go: JSON numbers decode into float64, so integers beyond 2^53 lose digits (opt-in fix in 1.54.0)',
    language: 'go',
    links: [
      { label: 'google-cloud-go #8669', url: 'https://github.com/googleapis/google-cloud-go/issues/8669' },
      { label: 'google-cloud-go PR #9054', url: 'https://github.com/googleapis/google-cloud-go/pull/9054' },
    ],
    affected: 'every version with JSON (1.25.0 on); from 1.54.0 only without UseNumberWithJSONDecoderEncoder(true)',
    fixed: '1.54.0 ("Use json.Number for decoding unknown values from spanner"), opt-in: spanner.UseNumberWithJSONDecoderEncoder(true) (configuration goJsonUseNumber)',
    fixedVersion: '1.54.0',
    versionsNote:
      'The default stays float64 in every release since (the function\'s doc: "Defaults to the same behavior as the standard Go library"), so the newest release without the switch is affected too. 1.33.0 stands for the releases before the switch (its driver is built for other reproductions already).',
    trigger: 'A JSON column whose integers span the 64-bit range (workload.resultSet jsonIntegers: int64), decoded into spanner.NullJSON and written back as text.',
    status: 'reproduced',
    seen: '2026-11-26, c5caea2: 100 JSON values with 64-bit integers: 1.33.0 and 1.96.1 without the switch failed on their first scan (both "column c0 (JSON) decoded to values whose checksum is 87d10843, the result\'s is fca66657"); 1.54.0 and 1.96.1 with goJsonUseNumber 489 and 507 scans/s, no error.',
    spec: {
      name: 'Reproduction: Go JSON integers beyond 2^53 lose digits',
      clients: [
        { language: 'go', version: '1.33.0' },
        { language: 'go', version: '1.54.0' },
        { language: 'go', version: '1.96.1' },
        { language: 'go', version: '1.96.1' },
      ],
      configurations: [{ label: 'client default' }, { label: 'UseNumber', goJsonUseNumber: true }, { label: 'client default' }, { label: 'UseNumber', goJsonUseNumber: true }],
      pairing: 'zip',
      concurrency: [1],
      target,
      workload: { ...workload, resultSet: { rows: 100, columns: [{ type: 'JSON', bytes: 64, jsonIntegers: 'int64' }] } },
      expectations: [
        { kind: 'bound', metric: 'mismatchedCells', cells: { version: '1.33.0' }, atLeast: 1, says: '1.33.0 decodes the integers into float64' },
        { kind: 'bound', metric: 'failedCells', cells: { version: '1.54.0', configuration: 'UseNumber' }, atMost: 0, says: '1.54.0 with the switch keeps every digit' },
        { kind: 'bound', metric: 'mismatchedCells', cells: { version: '1.96.1', configuration: 'client default' }, atLeast: 1, says: 'the newest release without the switch still loses them' },
        { kind: 'bound', metric: 'failedCells', cells: { version: '1.96.1', configuration: 'UseNumber' }, atMost: 0, says: 'with it, it keeps them' },
      ],
    },
  },
];
