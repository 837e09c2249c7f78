import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PAGE, parseListQuery } from '../../src/list-query';

const paths = (r: ReturnType<typeof parseListQuery>) => (r.ok ? [] : r.issues.map((i) => i.path));

test('page: a whole number from 1 to MAX_PAGE, 1 when absent or empty; anything else is named', () => {
  assert.deepEqual(parseListQuery('jobs', new URLSearchParams('')), { ok: true, value: { page: 1 } });
  assert.deepEqual(parseListQuery('gates', { page: '' }), { ok: true, value: { page: 1 } });
  assert.deepEqual(parseListQuery('gates', { page: '7' }), { ok: true, value: { page: 7 } });
  assert.deepEqual(parseListQuery('gates', { page: String(MAX_PAGE) }), { ok: true, value: { page: MAX_PAGE } });
  assert.deepEqual(parseListQuery('watch', { page: '3' }), { ok: true, value: { page: 3 } });
  assert.deepEqual(paths(parseListQuery('watch', { page: '0' })), ['page'], "a watch's page of releases");
  for (const bad of ['0', '-1', '1e22', '99999999999999999999', '1.5', ' 2', 'abc', '0x10', String(MAX_PAGE + 1), 'Infinity']) {
    const r = parseListQuery('gates', new URLSearchParams({ page: bad }));
    assert.ok(!r.ok, bad);
    assert.deepEqual(r.issues, [{ path: 'page', message: `must be a whole number from 1 to ${MAX_PAGE}` }], bad);
  }
});

test('by: printable and bounded; a NUL or another control character is named, as is a repeated parameter', () => {
  assert.deepEqual(parseListQuery('jobs', new URLSearchParams('by=token%3Aci-bot&page=2')), { ok: true, value: { by: 'token:ci-bot', page: 2 } });
  assert.deepEqual(parseListQuery('jobs', { by: 'Zoë <z@example.com>' }), { ok: true, value: { by: 'Zoë <z@example.com>', page: 1 } });
  for (const bad of ['\u0000', 'a\u0000b', 'x\ny', '\u007f', '\u009b']) {
    const r = parseListQuery('jobs', { by: bad });
    assert.ok(!r.ok);
    assert.deepEqual(r.issues, [{ path: 'by', message: 'must not contain control characters' }]);
  }
  assert.deepEqual(paths(parseListQuery('jobs', { by: 'a'.repeat(201) })), ['by']);
  assert.deepEqual(paths(parseListQuery('jobs', new URLSearchParams('by=a&by=b&page=1e22'))), ['page', 'by']);
  assert.match((parseListQuery('jobs', { by: ['a', 'b'] }) as { issues: { message: string }[] }).issues[0]!.message, /more than once/);
  assert.deepEqual(parseListQuery('jobs', new URLSearchParams('_rsc=abc&page=3')), { ok: true, value: { page: 3 } }, "another parameter (Next.js's own) is left alone");
});

test('filters: one of the known values, empty for all', () => {
  assert.deepEqual(parseListQuery('reproductions', { language: 'java', status: 'not run yet' }), { ok: true, value: { language: 'java', status: 'not run yet' } });
  assert.deepEqual(parseListQuery('reproductions', { language: '', status: '' }), { ok: true, value: {} });
  const r = parseListQuery('reproductions', { language: '\u0000', status: 'fixed' });
  assert.ok(!r.ok);
  assert.deepEqual(r.issues, [
    { path: 'language', message: 'must be one of node, java, go, python' },
    { path: 'status', message: 'must be one of reproduced, not reproduced, not run yet' },
  ]);
  assert.deepEqual(parseListQuery('watches', { verdict: 'pass' }), { ok: true, value: { verdict: 'pass' } });
  assert.deepEqual(paths(parseListQuery('watches', { verdict: 'passed', language: ['go', 'go'] })), ['language', 'verdict']);
});
