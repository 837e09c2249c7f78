// The Java and Go drivers' copies of the contract are what packages/shared defines: regenerate them
// with `npm run generate:contract` when this fails.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SQL } from '@scb/shared/catalogue';
import { absolute, renderContract } from '../../scripts/contract';

test('the generated Java and Go contract files are up to date with packages/shared', () => {
  for (const f of renderContract()) {
    assert.equal(readFileSync(absolute(f.path), 'utf8'), f.text, `${f.path} is stale: run npm run generate:contract`);
  }
});

test('every statement of the catalogue reaches both languages under its own name', () => {
  const [go, java] = renderContract().map((f) => f.text);
  for (const [key, sql] of Object.entries(SQL)) {
    assert.ok(go!.includes(`= ${JSON.stringify(sql)}`), `go: ${key}`);
    assert.ok(java!.includes(`= ${JSON.stringify(sql)};`), `java: ${key}`);
  }
  assert.match(java!, /static final String SQL_INSERT_SCORE = /);
  assert.match(go!, /const sqlInsertScore = /);
});
