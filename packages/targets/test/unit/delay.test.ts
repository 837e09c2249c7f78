import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterAtLeast } from '../../src/fake/delay';

test('a delay the fake applies is never shorter by performance.now() than configured, though the loop lags', async () => {
  const shortest: number[] = [];
  for (let i = 0; i < 300; i++) {
    await new Promise((r) => setImmediate(r));
    // The loop's cached time falls behind while this turn is busy: a plain timer then fires early by performance.now().
    const busy = Date.now();
    while (Date.now() - busy < 1) {}
    const at = performance.now();
    shortest.push(await new Promise<number>((r) => afterAtLeast(3, () => r(performance.now() - at))));
  }
  assert.ok(Math.min(...shortest) >= 3, `answered after ${Math.min(...shortest).toFixed(3)} ms`);
  let fired = false;
  afterAtLeast(5, () => (fired = true)).cancel();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(fired, false, 'a cancelled delay never fires');
});
