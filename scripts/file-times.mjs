// A node:test reporter beside the spec one: each test file's time (its top-level tests, added), as one
// JSON line at the end, so `npm test` can name the slowest files of each tier.
export default async function* fileTimes(source) {
  const ms = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      ms[event.data.file] = (ms[event.data.file] ?? 0) + (event.data.details?.duration_ms ?? 0);
    }
  }
  yield `${JSON.stringify(ms)}\n`;
}
