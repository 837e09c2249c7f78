/** One readable line per event, prefixed with the time. */
export function logLine(line: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} runner  ${line}\n`);
}
