// The built-in target kinds: each folder is registered once (kinds.ts); its runner side is found by the
// folder's convention and its form is data in its kind, so the browser's import graph (the kinds) reaches
// no runner code (it would bundle node:child_process and the like).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { targetForms, targetKindNamed } from '@scb/shared/registry';
import { TargetSchema } from '@scb/shared';
import { builtInRunners } from '@scb/targets';
import { BUILT_IN_KINDS } from '@scb/targets/kinds';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const FOLDERS = readdirSync(SRC).filter((n) => statSync(path.join(SRC, n)).isDirectory());

test('every kind folder is registered once, its runner side found by its name; its form, where it has one, reaches the launch form', async () => {
  assert.deepEqual(FOLDERS.sort(), BUILT_IN_KINDS.map((k) => k.name).sort());
  assert.deepEqual(
    (await builtInRunners()).map((r) => r.kind),
    BUILT_IN_KINDS.map((k) => k.name),
  );
  // The launch form lists the registered kinds with a form, in the registration's order (the fake first: the default).
  assert.deepEqual(
    targetForms().map((f) => f.kind),
    BUILT_IN_KINDS.filter((k) => k.form).map((k) => k.name),
  );
  assert.equal(targetForms()[0]!.kind, 'fake');
  // @scb/shared registers the kinds: importing it is enough to parse a spec on any of them.
  for (const kind of BUILT_IN_KINDS) assert.equal(targetKindNamed(kind.name), kind);
  assert.deepEqual(TargetSchema.parse({ kind: 'emulator' }), { kind: 'emulator' });
  assert.match(JSON.stringify(TargetSchema.safeParse({ kind: 'no-such-kind' }).error?.issues), /must be one of fake, emulator, spanner/);
  // A form's state round-trips through its kind's schema.
  for (const f of targetForms()) {
    const target = f.write(f.initial);
    assert.equal(target.kind, f.kind);
    assert.deepEqual(f.read(target), f.read(f.write(f.read(target))));
  }
});

/** The package's files a file imports by a relative path. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.[^']+)'/g)].map((m) => {
    const base = path.resolve(path.dirname(file), m[1]);
    return ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find(existsSync) ?? base;
  });
}

test("the kinds' list, which the browser and @scb/shared import, reaches no runner code and no Node built-in", () => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const f of relativeImports(file)) visit(f);
  };
  visit(path.join(SRC, 'kinds.ts'));
  const reached = [...seen].map((f) => path.relative(SRC, f)).sort();
  assert.ok(reached.includes(path.join('fake', 'kind.ts')), reached.join(', '));
  assert.deepEqual(
    reached.filter((f) => /(^|\/)runner\.ts$/.test(f)),
    [],
    'kinds.ts must not reach a runner side',
  );
  for (const f of seen) assert.doesNotMatch(readFileSync(f, 'utf8'), /from 'node:/, `${path.relative(SRC, f)} imports a Node built-in`);
});
