// A node:test reporter beside the spec one: each test file's wall time (its process start and hooks
// included), as one JSON line at the end, so `npm test` can name the slowest files and order the next run.
// A bundled file (scripts/test-bundles.ts) is named by its source.
import { sourceOf } from './test-sources.mjs';

export default async function* fileTimes(source) {
  const ms = {};
  for await (const event of source) {
    // The file itself completes as a test named by its path.
    if (event.type === 'test:complete' && event.data.file && event.data.name === event.data.file) {
      ms[sourceOf(event.data.file)] = event.data.details?.duration_ms ?? 0;
    }
  }
  yield `${JSON.stringify(ms)}\n`;
}
