// Child of bench/tap.ts: a connection tap in front of 127.0.0.1:<port>, in a process of its own so its
// CPU is its own. Prints {"port"} when listening; on stdin's end prints {"cpuMs","rpcs"} and exits.
import { startTap } from '../packages/targets/src/tap';

const tap = await startTap({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.stdout.write(`${JSON.stringify({ port: tap.port })}\n`);
const cpu0 = process.cpuUsage();
process.stdin.resume();
process.stdin.on('end', async () => {
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, rpcs: tap.stats().totalRpcs })}\n`);
  await tap.stop();
  process.exit(0);
});
