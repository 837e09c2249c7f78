// The fake inside a worker thread (thread.ts starts it): its own event loop, answering stats, mark and
// stop requests from the thread that started it.
import { parentPort, workerData } from 'node:worker_threads';
import { LoopMonitor } from './loop';
import { startFakeSpanner, type FakeSpannerOptions } from './server';

const fake = await startFakeSpanner(workerData as FakeSpannerOptions);
const loop = new LoopMonitor();
const port = parentPort!;
port.on('message', async (m: { id: number; op: 'stats' | 'mark' | 'stop' }) => {
  if (m.op === 'stats') port.postMessage({ id: m.id, stats: { ...fake.stats(), loop: loop.read() } });
  else if (m.op === 'mark') {
    loop.mark();
    fake.markMeasuring();
    port.postMessage({ id: m.id });
  } else {
    loop.stop();
    await fake.stop();
    port.postMessage({ id: m.id });
    port.close();
  }
});
port.postMessage({ ready: { host: fake.host, port: fake.port } });
