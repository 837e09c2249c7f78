// test: yields
// Property-based fuzz of the job and gate specs against the validation and the real database: random
// JSON and valid specs with one field replaced by a random value are either refused field by field or
// stored (and queued) whole, never a crash; what was stored before does not change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createGate, createJob } from '@scb/db';
import { parseGateSpec, parseJobSpec, type FieldIssue, type ParseResult } from '@scb/shared';
import { useTestDatabase } from '../helpers/postgres';

const t = useTestDatabase();

const JOB = {
  name: 'fuzz',
  clients: [{ language: 'node', version: '9.0.0' }],
  configurations: [{ label: 'on', grpcGcp: 'on', numChannels: 4 }],
  concurrency: [10, 50],
  workload: { warmupOps: { min: 100, perConcurrency: 4 }, durationSeconds: 2 },
  target: { kind: 'fake', latencyMs: 65, server: { acceptDelayMs: 5 } },
  repeats: 2,
  timeScale: 1,
};
const GATE = { scenario: 'affinity-burst', language: 'java', baseline: '6.104.0', candidate: '6.105.0', repeats: 3, concurrency: [50] };

/** Every path of a JSON value, as key lists. */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return [at, ...v.flatMap((x, i) => paths(x, [...at, i]))];
  if (v && typeof v === 'object') return [at, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))];
  return [at];
}

/** `base` with the value at `path` replaced (the root: the value itself). */
function replaced(base: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  o[path.at(-1)!] = value;
  return copy;
}

/** JSON with any code point in its strings and keys, lone UTF-16 surrogates included (PostgreSQL refuses those). */
const anyJson = () => fc.jsonValue({ stringUnit: 'binary' });
/** `depth` objects inside one another: deep enough to break a recursive walk. */
const nested = (depth: number) => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
  return v;
};
// Values that have broken parsers before: NUL, lone surrogates, huge and odd numbers, deep nesting, prototype keys.
const nasty = fc.oneof(
  anyJson(),
  fc.string().map((s) => `${s}\u0000${s}`),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('\ud83d', 'a\udc00', '\udc00\ud83d'),
  fc.integer({ min: 30, max: 20_000 }).map(nested),
  fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53, 0.1, '', ' ', '9.0.0\n', '__proto__', 'constructor', { __proto__: { kind: 'x' } }, [], {}, null, true),
  fc.dictionary(fc.string({ unit: 'binary' }), anyJson(), { maxKeys: 4 }),
);
/** A value of the same kind as `v`: keeps many mutants valid, so that storing them is exercised too. */
function plausible(v: unknown): fc.Arbitrary<unknown> {
  if (typeof v === 'number') return fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.double({ min: 0, max: 1000, noNaN: true }));
  if (typeof v === 'string') return fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('9.0.0', '8.0.0', 'on', 'off', 'default'));
  if (typeof v === 'boolean') return fc.boolean();
  return nasty;
}
const valueAt = (base: unknown, path: (string | number)[]) => path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], base);
const mutated = (base: object) => fc.constantFrom(...paths(base)).chain((path) => fc.oneof(nasty, plausible(valueAt(base, path)), plausible(valueAt(base, path))).map((v) => replaced(base, path, v)));

function assertNamed(r: ParseResult<unknown>, input: unknown): asserts r is { ok: false; issues: FieldIssue[] } {
  assert.ok(!r.ok);
  assert.ok(r.issues.length > 0, `refused without a reason: ${JSON.stringify(input)}`);
  for (const i of r.issues) assert.ok(i.path && i.message, `an issue without its field or reason: ${JSON.stringify(i)}`);
}

test('random and mutated job and gate specs: refused naming fields, or stored and queued whole; stored rows do not change', { timeout: 600_000 }, async () => {
  const db = t.db;
  const base = parseJobSpec(JOB);
  assert.ok(base.ok);
  const first = await createJob(db, t.url, base.value);
  const before = await db.job.findUniqueOrThrow({ where: { id: first }, include: { cells: true } });
  let stored = 0;
  let refused = 0;
  const check = async (input: unknown, parse: (i: unknown) => ParseResult<unknown>, store: (v: never) => Promise<unknown>) => {
    // JSON on the wire: what the API would receive.
    let body: unknown;
    try {
      body = JSON.parse(JSON.stringify(input) ?? 'null');
    } catch {
      return;
    }
    const r = parse(body);
    if (r.ok) {
      await store(r.value as never);
      stored++;
    } else {
      assertNamed(r, body);
      refused++;
    }
  };
  await fc.assert(
    fc.asyncProperty(fc.oneof(anyJson(), mutated(JOB), mutated(JOB), mutated(JOB)), (input) => check(input, parseJobSpec, (v) => createJob(db, t.url, v))),
    { numRuns: 2000 },
  );
  await fc.assert(
    fc.asyncProperty(fc.oneof(anyJson(), mutated(GATE)), (input) => check(input, parseGateSpec, (v) => createGate(db, t.url, v))),
    { numRuns: 500 },
  );
  console.log(`# ${stored} specs stored, ${refused} refused`);
  assert.ok(stored > 200 && refused > 1000, `both outcomes exercised (${stored} stored, ${refused} refused)`);
  // Every stored job was queued with it, once.
  const jobs = await db.job.count();
  const queued = await db.$queryRaw<{ n: bigint }[]>`SELECT count(DISTINCT key) AS n FROM graphile_worker.jobs`;
  assert.equal(Number(queued[0]!.n), jobs, 'every stored job is queued exactly once');
  assert.deepEqual(await db.job.findUniqueOrThrow({ where: { id: first }, include: { cells: true } }), before, 'a stored job did not change');
});

test('lone surrogates and deep nesting are refused at their field, without recursion', () => {
  const r = parseJobSpec({ ...JOB, name: 'a\ud83d', configurations: [{ label: '\udc00x' }] });
  assertNamed(r, null);
  assert.deepEqual(
    r.issues.map((i) => [i.path, i.message]),
    [
      ['name', 'must be valid Unicode (it holds a lone UTF-16 surrogate)'],
      ['configurations.0.label', 'must be valid Unicode (it holds a lone UTF-16 surrogate)'],
    ],
  );
  assert.ok(parseJobSpec({ ...JOB, name: 'a pair 😀 is fine' }).ok);
  const deep = parseGateSpec({ ...GATE, configuration: nested(200_000) });
  assertNamed(deep, null);
  assert.match(deep.issues[0]!.message, /nested deeper than 32 levels/);
});

test('a NUL character anywhere is refused at its field, as PostgreSQL cannot store it', () => {
  const r = parseJobSpec({ ...JOB, name: 'a\u0000b', configurations: [{ label: 'x\u0000' }] });
  assertNamed(r, null);
  assert.deepEqual(
    r.issues.map((i) => i.path),
    ['name', 'configurations.0.label'],
  );
  assert.match(r.issues[0]!.message, /NUL character/);
  const g = parseGateSpec({ ...GATE, 'x\u0000': 1 });
  assertNamed(g, null);
  assert.equal(g.issues[0]!.path, 'x\\u0000');
});

test('bodies of any size around the limit: over it 413 before parsing, declared or streamed; under it parsed', { timeout: 600_000 }, async () => {
  process.env.SCB_MAX_BODY_BYTES ??= '262144';
  const { readJsonBody } = await import('../../apps/web/lib/http');
  const limit = Number(process.env.SCB_MAX_BODY_BYTES);
  const body = (bytes: number) => {
    const skeleton = JSON.stringify({ ...JOB, name: '' });
    // Multi-byte characters too: the limit is in bytes, not characters.
    const pad = 'é'.repeat(Math.max(0, Math.floor((bytes - Buffer.byteLength(skeleton)) / 2)));
    return JSON.stringify({ ...JOB, name: pad });
  };
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: limit - 64, max: limit + 64 }), fc.integer({ min: 0, max: 4 * limit }), fc.boolean(), async (near, far, declared) => {
      for (const text of [body(near), body(far)]) {
        const bytes = Buffer.from(text);
        // Streamed in chunks without a content-length, or declared up front.
        const stream = new ReadableStream({
          start(c) {
            for (let i = 0; i < bytes.length; i += 16_384) c.enqueue(bytes.subarray(i, i + 16_384));
            c.close();
          },
        });
        const req = new Request('http://localhost/api/jobs', {
          method: 'POST',
          body: stream,
          duplex: 'half',
          headers: declared ? { 'content-length': String(bytes.length) } : {},
        } as RequestInit);
        const r = await readJsonBody(req);
        if (bytes.length > limit) {
          assert.ok(!r.ok && r.response.status === 413, `${bytes.length} bytes over ${limit}`);
          assert.match(((await r.response.json()) as { error: string }).error, /larger than this server's limit of \d+ bytes \(SCB_MAX_BODY_BYTES\)/);
        } else assert.ok(r.ok, `${bytes.length} bytes within ${limit} are parsed`);
      }
    }),
    { numRuns: 40 },
  );
});
