// The Java and Go drivers' copies of the contract (the operation catalogue, the driver protocol's types)
// are what packages/shared defines: regenerate them with `npm run generate:contract` when this fails.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { z } from 'zod';
import { OPERATION_RPCS, operationInTransaction, operationReadingByKey, operationRunning, SQL } from '@scb/shared/catalogue';
import { OPERATIONS } from '@scb/shared/job';
import { DriverCellSchema, DriverMessageSchema } from '@scb/shared/protocol';
import { absolute, renderContract, renderProtocol } from '../../scripts/contract';

test('the generated Java and Go contract files are up to date with packages/shared', () => {
  for (const f of renderContract()) {
    assert.equal(readFileSync(absolute(f.path), 'utf8'), f.text, `${f.path} is stale: run npm run generate:contract`);
  }
});

test('every statement of the catalogue reaches every language under its own name', () => {
  const [go, java, python] = ['contract_gen.go', 'Contract.java', 'contract_gen.py'].map((name) => renderContract().find((f) => f.path.endsWith(name))!.text);
  for (const [key, sql] of Object.entries(SQL)) {
    assert.ok(go!.includes(`= ${JSON.stringify(sql)}`), `go: ${key}`);
    assert.ok(java!.includes(`= ${JSON.stringify(sql)};`), `java: ${key}`);
    assert.ok(python!.includes(`\nSQL_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()} = ${JSON.stringify(sql)}\n`), `python: ${key}`);
  }
  assert.match(java!, /static final String SQL_INSERT_SCORE = /);
  assert.match(go!, /const sqlInsertScore = /);
});

/** Every property of the JSON Schema's objects, $defs included. */
function propertiesOf(schema: unknown): Set<string> {
  const names = new Set<string>();
  const walk = (s: unknown) => {
    if (!s || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') for (const k of Object.keys(o.properties)) names.add(k);
    for (const v of Object.values(o)) walk(v);
  };
  walk(schema);
  return names;
}

test('every field of the driver protocol reaches Go and Python under its JSON name, and every field of the cell Java', () => {
  const { go, java, python } = renderProtocol();
  for (const name of propertiesOf(z.toJSONSchema(DriverCellSchema, { io: 'input' }))) {
    assert.match(go, new RegExp(`\`json:"${name}(,omitempty)?"\``), `go: ${name}`);
    assert.ok(go.includes(`d.field(o, path, "${name}", `), `go reads ${name}`);
    assert.ok(java.includes(`(o, path, "${name}", `), `java reads ${name}`);
    assert.ok(python.includes(`(o, path, "${name}", `), `python reads ${name}`);
  }
  for (const name of propertiesOf(z.toJSONSchema(DriverMessageSchema))) {
    assert.match(go, new RegExp(`\`json:"${name}(,omitempty)?"\``), `go: ${name}`);
    assert.match(python, new RegExp(`\n    ${name}: `), `python: ${name}`);
  }
  // Python: the cell as dataclasses read with their defaults; the messages as TypedDicts.
  assert.match(python, /grpc_gcp=_optional\(o, path, "grpcGcp", _one_of\("on", "off", "default"\), "default"\),/);
  assert.match(python, /\n {4}cap: Optional\[Cap\]\n/);
  assert.match(python, /\n {4}deadline_ms: float\n/);
  assert.match(python, /class ResultMessage\(_ResultMessageRequired, total=False\):/);
  // Defaults of the cell: a driver fills them in as zod would (the runner writes them anyway).
  assert.match(go, /\} else \{\n\t\tx\.GrpcGcp = "default"\n/);
  assert.match(go, /\} else \{\n\t\tx\.Distribution = "fixed"\n/);
  assert.match(java, /"grpcGcp", .*, "default"\),/);
  assert.match(java, /"distribution", .*, "fixed"\)\);/);
  // Optional fields are nil or null when absent; required ones are not.
  assert.match(go, /\tCap +\*Cap +`json:"cap,omitempty"`/);
  assert.match(go, /\tDeadlineMs +float64 +`json:"deadlineMs"`/);
  assert.match(java, /\bLong measuredOps,/);
  assert.match(java, /\blong warmupOps,/);
});

test('a union becomes a sealed interface in Java and one struct in Go; two different types of one name are refused', () => {
  const closed = z.strictObject({ shape: z.literal('closed'), concurrency: z.number().int().min(1).max(100), warmupOps: z.number().int() });
  const open = z.strictObject({ shape: z.literal('open'), rate: z.number().positive(), warmupOps: z.number().int() });
  const cell = z.strictObject({ load: z.discriminatedUnion('shape', [closed, open]), tags: z.array(z.enum(['a', 'b'])).optional() });
  const message = z.object({ type: z.literal('done') });
  const names = z.registry<{ id: string }>();
  names.add(cell, { id: 'Cell' }).add(message, { id: 'Done' });
  const schemas = { input: z.toJSONSchema(cell, { metadata: names, io: 'input' }), output: z.toJSONSchema(message, { metadata: names }) };
  const { go, java } = renderProtocol(schemas);

  assert.match(
    go,
    /type Load struct \{\n\tShape +string +`json:"shape"`\n\tConcurrency +\*int +`json:"concurrency,omitempty"`\n\tWarmupOps +int64 +`json:"warmupOps"`\n\tRate +\*float64 +`json:"rate,omitempty"`\n\}/,
  );
  assert.match(go, /\tcase "closed":\n\t\tif v, p := d\.field\(o, path, "concurrency", true\); v != nil \{\n\t\t\tx\.Concurrency = new\(int\)/);
  assert.match(go, /\tcase "open":\n/);
  assert.match(go, /func parseCell\(data \[\]byte\) \(\*Cell, error\)/);
  assert.match(go, /type Done struct/);
  assert.match(java, /sealed interface Load permits ClosedLoad, OpenLoad \{\n {4}String shape\(\);\n\n {4}long warmupOps\(\);\n\n {4}static Load read/);
  assert.match(java, /record OpenLoad\(\n {6}double rate,\n {6}long warmupOps\) implements Load \{/);
  assert.match(
    java,
    /ProtocolReader\.optional\(o, path, "tags", \(j, p\) -> ProtocolReader\.list\(j, p, \(j1, p1\) -> ProtocolReader\.oneOf\(ProtocolReader\.string\(j1, p1\), p1, "a", "b"\)\), null\)/,
  );
  assert.doesNotMatch(java, /record Done/, 'Java writes its messages itself');

  const clash = z.strictObject({ a: z.strictObject({ pool: z.strictObject({ x: z.number() }) }), b: z.strictObject({ pool: z.strictObject({ y: z.number() }) }) });
  names.add(clash, { id: 'Clash' });
  assert.throws(() => renderProtocol({ input: z.toJSONSchema(clash, { metadata: names }), output: schemas.output }), /are both named Pool: give one an id/);
});

test('the catalogue says how every operation kind reaches the server, and each RPC group names one operation', () => {
  assert.deepEqual(Object.keys(OPERATION_RPCS).sort(), [...OPERATIONS].sort(), 'an operation kind without its RPCs in the catalogue');
  for (const key of Object.keys(SQL) as (keyof typeof SQL)[]) assert.ok(operationRunning(key), `no operation runs SQL.${key}`);
  assert.equal(operationReadingByKey(), 'pointRead');
  assert.equal(operationInTransaction('read-only'), 'readOnlyTxn');
  assert.equal(operationInTransaction('read-write'), 'readWriteTxn');
});
