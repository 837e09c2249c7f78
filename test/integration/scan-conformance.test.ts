// The scan operation through every language's driver against the fake: a result of every Spanner type,
// NULLs and arrays included, streamed in small chunks with values split mid-way, decoded by the real
// client and folded into the checksums the fake's values give; a value changed in one chunk fails the
// cell, naming the column and its type.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeSpanner } from '@scb/fake-spanner';
import { prepareDriver } from '@scb/languages';
import { COLUMN_TYPES, type Language, type ResultSet, ResultSetSchema } from '@scb/shared';
import { runDriver } from '../../apps/runner/src/cell';
import { CACHE_DIR } from '../../apps/runner/src/paths';
import { defaultCellOn } from '../helpers/cells';
import { languagePlugins } from '@scb/languages';

/** The newest version of each client the registries serve here that decodes every type below (FLOAT32 included). */
const VERSIONS: Record<Language, string> = { node: '9.0.0', java: '6.123.0', go: '1.96.1' };

const sized = (type: string) => /STRING|BYTES|JSON/.test(type);
/** Every scalar and array type, a tenth NULL, in 512-byte chunks: strings, bytes and lists are split across parts. */
const EVERY_TYPE = ResultSetSchema.parse({
  rows: 30,
  columns: COLUMN_TYPES.map((type) => ({ type, nullFraction: 0.1, ...(sized(type) ? { bytes: 48 } : {}) })),
  chunkBytes: 512,
  seed: 3,
});

async function scanRun(language: Language, shape: ResultSet, server: { corruptResultSetPart?: number } = {}) {
  const client = { language, version: VERSIONS[language]! };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  const fake = await startFakeSpanner({ latencyMs: 1, resultSets: [shape], ...server });
  try {
    const cell = defaultCellOn(fake, client, { warmupOps: 2, measuredOps: 20, operation: 'scan', resultSet: shape }, 2);
    return { result: await runDriver(cell, launch).catch((e: Error) => e), stats: fake.stats() };
  } finally {
    await fake.stop();
  }
}

for (const language of languagePlugins().map((p) => p.language)) {
  test(`${language} driver: scan decodes every type from chunked answers, and each column's checksum agrees`, { timeout: 10 * 60_000 }, async () => {
    for (const read of ['all', 'none'] as const) {
      const { result, stats } = await scanRun(language, { ...EVERY_TYPE, read });
      assert.ok(!(result instanceof Error), `read ${read}: ${(result as Error).message}`);
      assert.deepEqual(result.errors, {}, JSON.stringify(result.errors));
      assert.equal(result.count, 20);
      assert.equal(result.operations.scan?.count, 20);
      assert.equal(stats.rpcsByMethod.ExecuteStreamingSql, 22, JSON.stringify(stats.rpcsByMethod));
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
  });
}

test('go driver: a version without spanner.NullFloat32 (1.33.0) refuses a FLOAT32 column it would decode, and decodes every other type', { timeout: 10 * 60_000 }, async () => {
  const client = { language: 'go' as const, version: '1.33.0' };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  const others = ResultSetSchema.parse({ ...EVERY_TYPE, columns: EVERY_TYPE.columns.filter((c) => !c.type.includes('FLOAT32')) });
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
