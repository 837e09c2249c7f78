import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CELL_CSV_COLUMNS,
  escapeMarkdown,
  evaluateGate,
  gateMarkdown,
  gateSetupLine,
  jobMarkdown,
  parseGateSpec,
  parseJobSpec,
  setupLine,
  toCsv,
  type CsvRow,
  type GateSample,
  type TableCell,
} from '../../src/index';

const HOSTILE_NAME = '@everyone [click](javascript:alert(1)) ![x](http://evil/img.png) | broken';
// A configuration label is at most 60 characters.
const HOSTILE_LABEL = '@team [a](javascript:x) ![i](http://e/i.png) | b <b>*c*</b>';
const HOSTILE_ERROR = 'boom @org/admins [here](http://evil) | www.evil.com\nnext line';

/** Whether `ch` occurs at i with an even number of backslashes before it (so Markdown reads it). */
function unescapedAt(s: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && s[j] === '\\'; j--) n++;
  return n % 2 === 0;
}
const unescapedCount = (s: string, ch: string) => s.split('').filter((c, i) => c === ch && unescapedAt(s, i)).length;

/** What GitHub shows of escaped text: the backslashes and zero-width spaces gone. */
const shown = (s: string) => s.replace(/\\([\\`*_{}[\]!|<>~:&$.])/g, '$1').replace(/\u200b/g, '');

/** No Markdown syntax from the user's text: as many active characters as with harmless text, tables whose rows keep their cells. */
function assertInert(md: string, harmless: string) {
  for (const ch of '[]!<>|&`*_~') assert.equal(unescapedCount(md, ch), unescapedCount(harmless, ch), `unescaped ${ch} in:\n${md}`);
  assert.doesNotMatch(md, /@(everyone|team|org|admins)/);
  // GitHub links http:// and www. in text unless a backslash breaks them.
  assert.doesNotMatch(md, /[^\\]:\/\/(evil|e\/)|www\./);
  const lines = md.split('\n');
  lines.forEach((line, i) => {
    if (!/^\|(---\|)+$/.test(line)) return;
    const cols = unescapedCount(line, '|');
    assert.equal(unescapedCount(lines[i - 1]!, '|'), cols, lines[i - 1]);
    for (let j = i + 1; j < lines.length && lines[j]!.startsWith('|'); j++) assert.equal(unescapedCount(lines[j]!, '|'), cols, lines[j]);
  });
}

test('escapeMarkdown: punctuation escaped, mentions broken, one line, and it still reads the same', () => {
  const e = escapeMarkdown(HOSTILE_NAME);
  assert.equal(e, '@\u200beveryone \\[click\\](javascript:alert(1)) \\!\\[x\\](http\\://evil/img.png) \\| broken');
  assert.equal(shown(e), HOSTILE_NAME);
  assert.equal(escapeMarkdown('a\r\nb\nc\rd'), 'a b c d');
  assert.equal(escapeMarkdown('\\|'), '\\\\\\|');
  assert.equal(escapeMarkdown('&#64;x $a$ ~~s~~ # h www.x.com'), '\\&#64;x \\$a\\$ \\~\\~s\\~\\~ # h www\\.x.com');
  assert.equal(escapeMarkdown('node 9 runs 400 cells'), 'node 9 runs 400 cells');
});

function markdownJob(name: string, label: string, host: string, error: string) {
  const spec = parseJobSpec({
    name,
    clients: [{ language: 'node', version: '9.0.0' }],
    configurations: [{ label }, { label: 'plain' }],
    concurrency: [10],
    workload: { durationSeconds: 3 },
  });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  const cell = (configLabel: string, extra: Partial<TableCell> = {}): TableCell => ({
    client: { language: 'node', version: '9.0.0' },
    configuration: { label: configLabel },
    concurrency: 10,
    repeat: 1,
    status: 'succeeded',
    result: { qps: 150, p50Ms: 65, p99Ms: 80 },
    verdict: 'clean',
    ...extra,
  });
  return {
    id: 'j1',
    url: 'http://x/jobs/j1',
    spec: spec.value,
    environment: { cores: 2, host },
    cells: [cell(label, { verdict: 'client-bound', verdictReasons: "driver's event loop busy 95% (over 80%)" }), cell('plain', { status: 'failed', result: null, error })],
  };
}

test('job Markdown: a hostile name, configuration label and runner host land as literal text', () => {
  const job = markdownJob(HOSTILE_NAME, HOSTILE_LABEL, 'box <img src=x> @admins', HOSTILE_ERROR);
  const md = jobMarkdown(job);
  assertInert(md, jobMarkdown(markdownJob('name', 'label', 'box', 'boom')));
  assert.ok(!md.includes(HOSTILE_NAME));
  // The label reads the same in the setup line, the table header and the bound-cell line.
  const label = escapeMarkdown(HOSTILE_LABEL);
  assert.equal(md.split(label).length - 1, 3, md);
  assert.ok(shown(md).includes(`| ${HOSTILE_LABEL} qps / p50 / p99 | plain qps / p50 / p99 |`), md);
  assert.match(md, /\| 10 \| 150 \/ 65\.0 \/ 80\.0 \* \| failed \|/);
  assert.ok(shown(md).includes('2 cores (box <img src=x> @admins)'));
  assert.ok(md.startsWith('**spanner-client-bench** [job j1](http://x/jobs/j1): '), 'our own bold and link are kept');
  // A page renders the setup line as text: nothing escaped there.
  assert.ok(setupLine(job).includes(`${HOSTILE_LABEL}, plain`));
});

function markdownGate(name: string, error: string, reason: string) {
  const spec = parseGateSpec({ name, scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidate: '9.0.1', concurrency: [10] });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  const samples: GateSample[] = [];
  for (let repeat = 1; repeat <= 5; repeat++) {
    for (const arm of ['baseline', 'candidate'] as const) samples.push({ arm, concurrency: 10, repeat, qps: 150 + repeat, p50Ms: 65, p99Ms: 80, errorPct: 0 });
  }
  const evaluation = evaluateGate(samples, { criteria: { ...spec.value.criteria, worstRepeat: false }, concurrency: [10] });
  // As the runner words a failed cell (apps/runner/src/gate.ts).
  evaluation.reasons.push(`1 of 10 cells did not succeed (first: candidate 9.0.1 C=10 repeat 1: ${error})`, reason);
  return { id: 'g1', url: 'http://x/gates/g1', jobUrl: 'http://x/jobs/j1', spec: spec.value, evaluation };
}

test('gate Markdown: a hostile gate name and error messages quoted in the reasons land as literal text', () => {
  const g = markdownGate(HOSTILE_NAME, HOSTILE_ERROR, HOSTILE_LABEL);
  const md = gateMarkdown(g);
  assertInert(md, gateMarkdown(markdownGate('name', 'boom', 'label')));
  assert.ok(!md.includes(HOSTILE_NAME));
  assert.ok(shown(md).includes(`: ${HOSTILE_ERROR.replace('\n', ' ')})`), md);
  assert.ok(md.includes(`\n- ${escapeMarkdown(HOSTILE_LABEL)}\n`));
  assert.match(md, /^\*\*spanner-client-bench\*\* \[gate g1\]\(http:\/\/x\/gates\/g1\): node 9\.0\.1 \(candidate\) vs 9\.0\.0 \(baseline\)/, 'versions are validated semver: left as they are');
  assert.match(md, /\n\*\*Verdict: PASS\*\*\n/);
  // A page renders the setup line as text.
  assert.match(gateSetupLine(g.spec), /^node 9\.0\.1 \(candidate\) vs 9\.0\.0 \(baseline\) · scenario Steady SELECT 1 \(overridden: concurrency 10\)/);
});

const csvRow = (o: Partial<CsvRow>): CsvRow => ({ ...(Object.fromEntries(CELL_CSV_COLUMNS.map((c) => [c, null])) as CsvRow), ...o });
const csvLine = (o: Partial<Record<(typeof CELL_CSV_COLUMNS)[number], string>>) => CELL_CSV_COLUMNS.map((c) => o[c] ?? '').join(',');

test('CSV: formulas neutralised in text, quotes, commas and newlines quoted, our numbers left as numbers', () => {
  const csv = toCsv([
    csvRow({ job: 'j1', cell: 1, configuration: '=HYPERLINK("http://evil","x")', qps: -12.5, concurrency: -3, capped: true, error: 'a, "b"\nc' }),
    csvRow({ job: 'j1', cell: 2, configuration: '+1', verdict_reasons: '-12.5', warm_start: false }),
    csvRow({ job: 'j1', cell: 3, configuration: '-1+2', error: '@SUM(A1)' }),
    csvRow({ job: 'j1', cell: 4, configuration: '\tx', error: '\rcmd' }),
    csvRow({ job: 'j1', cell: 5, configuration: 'plain = fine', version: '9.0.0', p50_ms: 65.25, arm: '' }),
    csvRow({ job: 'j1', cell: 6, version: '9.0.1-SNAPSHOT', artifact: `sha256:${'a'.repeat(64)}`, build_label: '=PR 1 @ abc' }),
  ]);
  const expected = [
    CELL_CSV_COLUMNS.join(','),
    csvLine({ job: 'j1', cell: '1', configuration: `"'=HYPERLINK(""http://evil"",""x"")"`, qps: '-12.500', concurrency: '-3', capped: 'true', error: '"a, ""b""\nc"' }),
    csvLine({ job: 'j1', cell: '2', configuration: "'+1", verdict_reasons: "'-12.5", warm_start: 'false' }),
    csvLine({ job: 'j1', cell: '3', configuration: "'-1+2", error: "'@SUM(A1)" }),
    csvLine({ job: 'j1', cell: '4', configuration: "'\tx", error: `"'\rcmd"` }),
    csvLine({ job: 'j1', cell: '5', configuration: 'plain = fine', version: '9.0.0', p50_ms: '65.250' }),
    // An uploaded build's label is user text like any other.
    csvLine({ job: 'j1', cell: '6', version: '9.0.1-SNAPSHOT', artifact: `sha256:${'a'.repeat(64)}`, build_label: "'=PR 1 @ abc" }),
  ];
  assert.equal(csv, `${expected.join('\n')}\n`);
  // The header is exactly the columns, in order.
  assert.equal(
    csv.split('\n')[0],
    'job,cell,language,version,configuration,arm,concurrency,repeat,status,qps,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,count,error_count,capped,cpu_share,warm_start,driver_loop_utilization,driver_loop_delay_p99_ms,target_added_p50_ms,target_added_p99_ms,target_loop_utilization,target_loop_delay_p99_ms,target_cpu_share,machine_busy_share,machine_runner_share,machine_load1,verdict,verdict_reasons,channel_source,connections_opened,connections_used,hottest_share,hottest_peak_in_flight,error,arrival_rate,uncorrected_p50_ms,uncorrected_p99_ms,schedule_lag_p99_ms,outstanding_cap_waits,target_wire_added_p50_ms,target_wire_added_p99_ms,peak_rss_bytes,gc_ms,rows_per_second,cpu_ms_per_1k_rows,first_row_p50_ms,first_row_p99_ms,last_row_p50_ms,last_row_p99_ms,wire_bytes,wire_bytes_per_second,artifact,build_label,tokens_refused',
  );
  assert.equal(toCsv([]), `${CELL_CSV_COLUMNS.join(',')}\n`);
});
