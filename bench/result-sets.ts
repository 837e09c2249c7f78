// `npm run bench:result-sets`: the scan operation's figures per client and result shape, cell for cell
// the way the runner runs them (a fresh fake on its thread and a fresh driver process per cell): rows per
// second, the driver's CPU per 1,000 rows, latency. Prints figures; nothing is asserted.
//   npm run bench:result-sets                      Node's single-chunk path: 8.12.0, 8.13.0, 9.0.0 on 1, 10, 100 rows (one chunk) and 10,000 (many)
//   npm run bench:result-sets -- --preset <id>     a result-set preset as it is, one cell per client
//   npm run bench:result-sets -- --headroom        the fake's headroom: how fast it serves the whole-table preset's
//                                                  result to a reader that does not decode, against the fastest client
//   npm run bench:result-sets -- --preset <id> --emulator
//                                                  the preset on the emulator target (a fresh emulator per cell, its
//                                                  table provisioned and filled first): first how long provisioning
//                                                  the shape takes, then the cells
// Each cell's time to the first row and the last (p50, p99) and the bytes per second the fake sent on the
// wire are the runner's stored figures (cell-result.ts).
//   BENCH_SECONDS=5 (measured per cell), BENCH_REPEATS=1, BENCH_READ=all|first|none, BENCH_CHUNK_BYTES and BENCH_COLUMNS (a preset's read, chunk size and columns, the last as JSON, e.g. '[{"type":"BOOL"}]'), BENCH_ROWS=1,10,100,10000 (the single-chunk comparison's row counts)
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import { startFakeSpannerThread } from '@scb/fake-spanner';
import { prepareDriver } from '@scb/languages';
import { driverResultSet } from '@scb/shared/result-set';
import { spannerService } from '../packages/fake-spanner/src/proto';
import { clientText, decodeHistogram, type JobSpec, type JobSpecInput, median, parseJobSpec, planCells, PLAYERS, PRESETS, type ResultSet, summarize } from '@scb/shared';
import { runCell } from '../apps/runner/src/cell';
import { cellResultOf } from '../apps/runner/src/cell-result';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { emulatorVersion, findEmulatorBinary, missingEmulatorMessage } from '../packages/targets/src/emulator/binary';
import { startEmulatorProcess } from '../packages/targets/src/emulator/process';
import { provision, rowsPerCommit } from '../packages/targets/src/emulator/provision';
import { NODE_SINGLE_CHUNK_COLUMNS } from '../packages/shared/src/job/result-set-presets';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 1);
const { values } = parseArgs({ options: { preset: { type: 'string' }, headroom: { type: 'boolean' }, emulator: { type: 'boolean' } } });
if (values.headroom) values.preset = 'result-set-whole-table';
if (values.emulator && (values.headroom || !values.preset)) throw new Error("--emulator runs a preset (--preset <id>) on the emulator; --headroom is the fake's");

/**
 * What every emulator cell of the shape pays before its driver starts: a fresh emulator, the instance,
 * database and leaderboard rows, then the shape's table filled with the generated rows. Wall time, and
 * the CPU the emulator and this process (generating and encoding the rows) spent on the table.
 */
async function emulatorProvisioning(shape: ResultSet): Promise<Record<string, string | number>> {
  const binary = findEmulatorBinary();
  if (!binary) throw new Error(missingEmulatorMessage());
  const emulator = await startEmulatorProcess(binary);
  const ticks = () => {
    const f = readFileSync(`/proc/${emulator.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * (1000 / 100);
  };
  const mine = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;
  try {
    const names = { projectId: 'bench-project', instanceId: 'bench-instance', databaseId: 'bench-db' };
    let t0 = performance.now();
    await provision('127.0.0.1', emulator.port, names, PLAYERS);
    const base = performance.now() - t0;
    const [e0, m0] = [ticks(), mine()];
    t0 = performance.now();
    await provision('127.0.0.1', emulator.port, names, PLAYERS, shape);
    return {
      client: `provisioning ${shape.rows} rows × ${shape.columns.length} columns (${rowsPerCommit(shape)} rows per commit)`,
      'database s': (base / 1000).toFixed(2),
      'table s': ((performance.now() - t0) / 1000).toFixed(2),
      'emulator CPU s': ((ticks() - e0) / 1000).toFixed(2),
      'runner CPU s': ((mine() - m0) / 1000).toFixed(2),
    };
  } finally {
    await emulator.stop();
  }
}

/**
 * The fake on its thread, as the runner starts it, streaming the shape's result to a gRPC reader that
 * keeps each PartialResultSet as bytes: rows per second it can serve one query at a time.
 */
async function fakeServes(spec: JobSpec): Promise<number> {
  const latencyMs = spec.target.kind === 'fake' ? (spec.target as { latencyMs: number }).latencyMs : 0;
  const fake = await startFakeSpannerThread({ latencyMs, resultSets: [spec.workload.resultSet!] });
  const def = spannerService().ExecuteStreamingSql!;
  const client = new grpc.Client(`${fake.host}:${fake.port}`, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
  const request = { session: 'projects/p/instances/i/databases/d/sessions/s', sql: driverResultSet(spec.workload.resultSet!).sql };
  const once = () =>
    new Promise<number>((resolve, reject) => {
      let bytes = 0;
      const call = client.makeServerStreamRequest(def.path, def.requestSerialize, (b: Buffer) => b, request);
      call.on('data', (b: Buffer) => (bytes += b.length));
      call.on('end', () => resolve(bytes));
      call.on('error', reject);
    });
  try {
    await once();
    let scans = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < SECONDS * 1000) {
      await once();
      scans++;
    }
    return (scans * spec.workload.resultSet!.rows * 1000) / (performance.now() - t0);
  } finally {
    client.close();
    await fake.stop();
  }
}

function specs(): JobSpecInput[] {
  if (values.preset) {
    const p = PRESETS.find((x) => x.id === values.preset);
    if (!p) throw new Error(`no preset ${values.preset}: ${PRESETS.map((x) => x.id).join(', ')}`);
    const w = p.spec.workload as JobSpecInput['workload'] & { resultSet: { read?: string } };
    const resultSet = {
      ...w.resultSet,
      ...(process.env.BENCH_READ ? { read: process.env.BENCH_READ as 'all' | 'first' | 'none' } : {}),
      ...(process.env.BENCH_CHUNK_BYTES ? { chunkBytes: Number(process.env.BENCH_CHUNK_BYTES) } : {}),
      ...(process.env.BENCH_COLUMNS ? { columns: JSON.parse(process.env.BENCH_COLUMNS) } : {}),
    };
    const read = { resultSet };
    return [{ ...p.spec, ...(values.emulator ? { target: { kind: 'emulator' } } : {}), workload: { ...w, measuredOps: undefined, durationSeconds: SECONDS, ...read }, repeats: REPEATS }];
  }
  return (process.env.BENCH_ROWS ?? '1,10,100,10000')
    .split(',')
    .map(Number)
    .map((rows) => ({
      clients: ['8.12.0', '8.13.0', '9.0.0'].map((version) => ({ language: 'node', version })),
      configurations: [{ label: 'client default' }],
      concurrency: [1],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'scan', warmupOps: 50, durationSeconds: SECONDS, resultSet: { rows, columns: NODE_SINGLE_CHUNK_COLUMNS } },
      repeats: REPEATS,
    }));
}

const out: Record<string, string | number>[] = [];
const setup: Record<string, string | number>[] = [];
for (const input of specs()) {
  const parsed = parseJobSpec(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const spec: JobSpec = parsed.value;
  const shape = spec.workload.resultSet!;
  if (values.emulator) setup.push(await emulatorProvisioning(shape));
  for (const plan of planCells(spec)) {
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const outcome = await runCell(spec, plan, launch, {});
    const { result, serverByOperation } = outcome;
    const stored = cellResultOf(outcome);
    const s = summarize(decodeHistogram(result.histogram), result.elapsedMs);
    const rows = result.count * shape.rows;
    const ms = (v: number | null | undefined) => (v == null ? '-' : v.toFixed(2));
    out.push({
      client: clientText(plan.client),
      configuration: plan.configuration.label,
      rows: shape.rows,
      'chunk B': shape.chunkBytes ?? 'default',
      read: shape.read,
      C: plan.concurrency,
      'scans/s': Math.round(s.qps),
      'rows/s': Math.round((rows * 1000) / result.elapsedMs),
      'CPU ms / 1k rows': ((result.cpuMs * 1000) / rows).toFixed(3),
      'p50 ms': s.p50Ms.toFixed(2),
      'p99 ms': s.p99Ms.toFixed(2),
      'first row p50 ms': ms(stored.firstRowP50Ms),
      'first row p99 ms': ms(stored.firstRowP99Ms),
      'last row p50 ms': ms(stored.lastRowP50Ms),
      'wire MB/s': stored.wireBytes == null ? '-' : ((stored.wireBytes * 1000) / result.elapsedMs / 1e6).toFixed(2),
      'server p50 ms': serverByOperation?.scan?.p50Ms.toFixed(2) ?? '-',
      errors: Object.values(result.errors).reduce((a, n) => a + n, 0),
    });
    process.stderr.write('.');
  }
}
process.stderr.write('\n');
if (values.headroom) {
  const parsed = parseJobSpec(specs()[0]);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const served = await fakeServes(parsed.value);
  const fastest = Math.max(...out.map((r) => Number(r['rows/s'])));
  out.push({ client: 'the fake to a reader that keeps bytes', rows: parsed.value.workload.resultSet!.rows, 'rows/s': Math.round(served) });
  console.log(`headroom: the fake serves ${Math.round(served)} rows/s, ${(served / fastest).toFixed(1)}× the fastest client's ${fastest} rows/s`);
}
console.log(`${values.emulator ? `emulator ${emulatorVersion() ?? ''}` : 'fake'}, ${SECONDS} s measured per cell, ${REPEATS} repeat(s), ${os.availableParallelism()} cores, ${os.cpus()[0]?.model}`);
if (setup.length) console.table(setup);
console.table(out);
// Repeats: the median of each client's (and configuration's, shape's) repeats, cell for cell as above.
if (REPEATS > 1) {
  const groups = new Map<string, Record<string, string | number>[]>();
  for (const r of out.filter((x) => x.read !== undefined)) {
    const key = `${r.client} ${r.configuration} ${r.rows} ${r['chunk B']} ${r.read}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const med = (rs: Record<string, string | number>[], k: string) => median(rs.map((r) => Number(r[k])).filter(Number.isFinite));
  console.table(
    [...groups.values()].map((rs) => ({
      client: rs[0]!.client,
      configuration: rs[0]!.configuration,
      rows: rs[0]!.rows,
      repeats: rs.length,
      'rows/s': Math.round(med(rs, 'rows/s')),
      'CPU ms / 1k rows': med(rs, 'CPU ms / 1k rows').toFixed(2),
      'first row p50 ms': med(rs, 'first row p50 ms').toFixed(2),
      'last row p50 ms': med(rs, 'last row p50 ms').toFixed(2),
      'p50 ms': med(rs, 'p50 ms').toFixed(2),
      'wire MB/s': med(rs, 'wire MB/s').toFixed(2),
    })),
  );
}
