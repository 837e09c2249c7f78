// The credentials mode's tokens: issued under a cell's secret, checked without state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkToken, issueToken, newTokenSecret } from '../../src/tokens';

test('a token is valid until its expiry under its own secret, and nothing else is', () => {
  const secret = newTokenSecret();
  const now = Date.now();
  const token = issueToken(secret, now + 60_000);
  assert.equal(checkToken(secret, `Bearer ${token}`, now), 'valid');
  assert.equal(checkToken(secret, `Bearer ${token}`, now + 60_001), 'expired');
  assert.equal(checkToken(newTokenSecret(), `Bearer ${token}`, now), 'invalid', "another cell's secret");
  assert.equal(checkToken(secret, `Bearer ${token.replace(/\.(\d+)\./, (_m, exp: string) => `.${Number(exp) + 3_600_000}.`)}`, now), 'invalid', 'a longer life written in');
  assert.equal(checkToken(secret, token, now), 'invalid', 'not a bearer header');
  assert.equal(checkToken(secret, undefined, now), 'missing');
  assert.equal(checkToken(secret, '', now), 'missing');
});
