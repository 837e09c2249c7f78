// The built-in target kinds: each folder's parts are listed in the package's lists, and the browser's
// list (forms.ts) reaches no runner code (it would bundle node:child_process and the like).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { targetKindNamed } from '@scb/shared/registry';
import { TargetSchema } from '@scb/shared';
import { BUILT_IN_RUNNERS } from '@scb/targets';
import { TARGET_FORMS } from '@scb/targets/forms';
import { BUILT_IN_KINDS } from '@scb/targets/kinds';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const FOLDERS = readdirSync(SRC).filter((n) => statSync(path.join(SRC, n)).isDirectory());

test('every kind folder has its spec part and its runner side, each listed once; its form, where it has one, too', () => {
  assert.deepEqual(FOLDERS.sort(), BUILT_IN_KINDS.map((k) => k.name).sort());
  assert.deepEqual(BUILT_IN_RUNNERS.map((r) => r.kind).sort(), FOLDERS);
  const withForm = FOLDERS.filter((k) => existsSync(path.join(SRC, k, 'form.tsx')));
  assert.deepEqual(TARGET_FORMS.map((f) => f.kind).sort(), withForm);
  // @scb/shared registers the kinds: importing it is enough to parse a spec on any of them.
  for (const kind of BUILT_IN_KINDS) assert.equal(targetKindNamed(kind.name), kind);
  assert.deepEqual(TargetSchema.parse({ kind: 'emulator' }), { kind: 'emulator' });
  assert.match(JSON.stringify(TargetSchema.safeParse({ kind: 'no-such-kind' }).error?.issues), /must be one of fake, emulator, spanner/);
});

/** The package's files a file imports by a relative path. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.[^']+)'/g)].map((m) => {
    const base = path.resolve(path.dirname(file), m[1]);
    return ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find(existsSync) ?? base;
  });
}

test("the browser's list of forms reaches no runner code of any kind", () => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const f of relativeImports(file)) visit(f);
  };
  visit(path.join(SRC, 'forms.ts'));
  const reached = [...seen].map((f) => path.relative(SRC, f)).sort();
  // It reaches the forms and the kinds' spec parts (a form's defaults), nothing that starts a target.
  assert.ok(reached.includes(path.join('fake', 'form.tsx')) && reached.includes(path.join('fake', 'kind.ts')), reached.join(', '));
  assert.deepEqual(
    reached.filter((f) => !/(^|\/)(form|forms|kind)\.tsx?$/.test(f)),
    [],
    'forms.ts must import only form and kind files',
  );
});
